import Testing
@testable import SandboxWire

@Suite struct GRPCHealthTests {
    let server = TestProtos.server()

    private func checkRequest(_ service: String) -> [UInt8] {
        var request = server.registry.message("grpc.health.v1.HealthCheckRequest")
        request["service"] = .string(service)
        return request.encoded()
    }

    private func check(_ service: String) throws -> (status: String?, grpc: (code: Int?, message: String?)) {
        let router = TestProtos.router(server)
        let response = router.respond(to: grpcRequest("/grpc.health.v1.Health/Check", messages: [checkRequest(service)])).resolved
        var deframer = GRPCDeframer()
        let message = try deframer.append(response.body).first.map { try server.registry.decode("grpc.health.v1.HealthCheckResponse", from: $0) }
        return (message?.enumName("status"), grpcStatus(response))
    }

    @Test func checkServesTheServerAndEveryService() throws {
        for service in ["", "test.Payouts", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection"] {
            let result = try check(service)
            #expect(result.status == "SERVING")
            #expect(result.grpc.code == 0)
        }
        let unknown = try check("nope.Service")
        #expect(unknown.status == nil)
        #expect(unknown.grpc.code == 5 && unknown.grpc.message == "unknown service")
    }

    @Test func watchStreamsTheStatusAndStaysOpen() throws {
        let request = grpcRequest("/grpc.health.v1.Health/Watch", messages: [])
        let handler = try #require(server.streamOpener(request))
        let collector = StreamCollector()
        let framed = GRPCDeframer.frame(checkRequest("test.Payouts"))
        handler.receive(Array(framed.prefix(3)), writer: collector.writer)
        #expect(collector.parts.isEmpty)
        handler.receive(Array(framed.dropFirst(3)), writer: collector.writer)
        handler.end(writer: collector.writer)
        guard case .head(200, let headers)? = collector.parts.first else { Issue.record("no head"); return }
        #expect(headers["content-type"] == "application/grpc")
        let messages = collector.messages.map { try? server.registry.decode("grpc.health.v1.HealthCheckResponse", from: $0) }
        #expect(messages.map { $0?.enumName("status") } == ["SERVING"])
        #expect(collector.trailers == nil)  // still open
        handler.cancel()
        #expect(server.metrics.count(method: "/grpc.health.v1.Health/Watch", code: .cancelled) == 1)
    }

    @Test func watchOfAnUnknownServiceSaysSo() throws {
        let handler = try #require(server.streamOpener(grpcRequest("/grpc.health.v1.Health/Watch", messages: [])))
        let collector = StreamCollector()
        handler.receive(GRPCDeframer.frame(checkRequest("nope")), writer: collector.writer)
        #expect(collector.messages.map { try? server.registry.decode("grpc.health.v1.HealthCheckResponse",
                                                                     from: $0).enumName("status") } == ["SERVICE_UNKNOWN"])
    }

    @Test func watchReadFromAWholeBodyAnswersOnceAndEnds() throws {
        let router = TestProtos.router(server)
        let response = router.respond(to: grpcRequest("/grpc.health.v1.Health/Watch", messages: [checkRequest("")])).resolved
        #expect(response.trailers?["grpc-status"] == "0")
        #expect(response.body.count == 5 + 2)
    }

    @Test func theOpenerLeavesOtherRequestsToTheRouter() {
        #expect(server.streamOpener(grpcRequest("/test.Payouts/Get", messages: [])) == nil)  // unary
        #expect(server.streamOpener(grpcRequest("/grpc.health.v1.Health/Watch", messages: [], contentType: "text/plain")) == nil)
        #expect(server.streamOpener(grpcRequest("/grpc.health.v1.Health/Watch", messages: [], headers: ["grpc-encoding": "gzip"])) == nil)
        #expect(server.streamOpener(HTTPRequest(method: "GET", target: "/grpc.health.v1.Health/Watch", version: .http2)) == nil)
    }
}
