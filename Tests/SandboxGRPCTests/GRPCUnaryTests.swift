import Dispatch
import Testing
@testable import SandboxWire
import TestHelpers

@Suite struct GRPCUnaryTests {
    let server = TestProtos.server()
    var router: Router { TestProtos.router(server) }

    private func call(_ request: HTTPRequest) -> HTTPResponse {
        router.respond(to: request).resolved
    }

    private func get(_ id: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        call(grpcRequest("/test.Payouts/Get", messages: [TestProtos.getRequest(id)], headers: headers))
    }

    @Test func answersAMessageWithOKTrailers() throws {
        let response = router.respond(to: grpcRequest("/test.Payouts/Get", messages: [TestProtos.getRequest("po_1")]))
        #expect(router.routeNames[response.route] == "POST /test.Payouts/Get")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/grpc")
        #expect(response.trailers == ["grpc-status": "0"])
        var deframer = GRPCDeframer()
        let messages = try deframer.append(response.body)
        #expect(messages.count == 1)
        let decoded = try server.registry.decode("test.GetResponse", from: messages[0])
        #expect(decoded.string("id") == "po_1")
        #expect(decoded.enumName("status") == "SUCCESS")
    }

    @Test func acceptsGRPCProtoContentTypeWithParameters() {
        let request = grpcRequest("/test.Payouts/Get", messages: [TestProtos.getRequest("a")], contentType: "application/grpc+proto; charset=utf-8")
        #expect(grpcStatus(call(request)).code == 0)
    }

    @Test func errorsAreTrailersOnlyWithAPercentEncodedMessage() {
        let response = get("missing")
        #expect(response.status == 200)
        #expect(response.body.isEmpty && response.trailers == nil)
        #expect(response.headers["content-type"] == "application/grpc")
        #expect(response.headers["grpc-status"] == "5")
        #expect(response.headers["grpc-message"] == "no payout \"missing\" 100%25 %E2%9C%93")
        #expect(grpcStatus(response).message == "no payout \"missing\" 100% ✓")
        #expect(grpcStatus(get("boom")) == (2, "the handler broke"))
    }

    @Test func metadataInAndOut() {
        let response = get("po_1", headers: ["x-user": "ana", "x-trace-bin": "AAH/", "grpc-foo": "reserved"])
        #expect(response.headers["x-user-seen"] == "ana")
        #expect(response.trailers?["x-trace-bin"] == "AAH/")
        #expect(get("po_1", headers: ["x-trace-bin": "AAH_"]).trailers?["x-trace-bin"] == "AAH/")  // URL-safe accepted
        #expect(get("po_1", headers: ["x-trace-bin": "AA=="]).trailers?["x-trace-bin"] == "AA")  // padded in, unpadded out
        #expect(grpcStatus(get("po_1", headers: ["x-trace-bin": "!!"])) == (13, "malformed binary metadata x-trace-bin: not base64"))
    }

    @Test func metadataSkipsReservedHeaders() throws {
        let headers: HTTPHeaders = ["content-type": "application/grpc", "te": "trailers", "grpc-timeout": "1S", ":path": "/x",
                                    "user-agent": "grpc-go/1.0", "x-a": "1", "X-B-Bin": "AQ"]
        let metadata = try GRPCMetadata(requestHeaders: headers)
        #expect(metadata.entries.map(\.name) == ["user-agent", "x-a", "x-b-bin"])
        #expect(metadata.binary("x-b-bin") == [1])
    }

    @Test func aContentTypeNeitherGRPCNorConnectIs415() {
        // application/json and application/proto are Connect's (GRPCConnectTests).
        let response = call(grpcRequest("/test.Payouts/Get", messages: [TestProtos.getRequest("a")], contentType: "text/plain"))
        #expect(response.status == 415)
        #expect(response.bodyText == "invalid gRPC request content-type \"text/plain\": send application/grpc (gRPC over HTTP/2), "
            + "or application/json or application/proto (Connect)")
    }

    @Test func gRPCOverHTTP1Is505() {
        let response = call(grpcRequest("/test.Payouts/Get", messages: [TestProtos.getRequest("a")], version: .http1_1))
        #expect(response.status == 505)
        #expect(response.bodyText.contains("h2c prior knowledge"))
        #expect(call(grpcRequest("/nope.Svc/M", messages: [], version: .http1_1)).status == 505)
    }

    @Test func compressionIsRefused() {
        let gzip = call(grpcRequest("/test.Payouts/Get", messages: [TestProtos.getRequest("a")], headers: ["grpc-encoding": "gzip"]))
        #expect(grpcStatus(gzip) == (12, "grpc-encoding \"gzip\" is not supported: the sandbox supports identity encoding only"))
        #expect(gzip.headers["grpc-accept-encoding"] == "identity")
        #expect(grpcStatus(get("a", headers: ["grpc-encoding": "identity"])).code == 0)
        var request = grpcRequest("/test.Payouts/Get", messages: [TestProtos.getRequest("a")])
        request.body[0] = 1
        #expect(grpcStatus(call(request)).code == 13)
        #expect(grpcStatus(call(request)).message?.contains("identity encoding only") == true)
    }

    @Test func cardinalityAndFramingErrors() {
        let none = call(grpcRequest("/test.Payouts/Get", messages: []))
        #expect(grpcStatus(none) == (12, "cardinality violation: unary method /test.Payouts/Get needs exactly one request message, got 0"))
        let two = call(grpcRequest("/test.Payouts/Get", messages: [TestProtos.getRequest("a"), TestProtos.getRequest("b")]))
        #expect(grpcStatus(two).code == 12)
        var cut = grpcRequest("/test.Payouts/Get", messages: [TestProtos.getRequest("a")])
        cut.body.removeLast()
        #expect(grpcStatus(call(cut)) == (13, "the request body ends inside a message"))
        let garbage = call(grpcRequest("/test.Payouts/Get", messages: [[0x0A, 0x05, 0x61]]))
        #expect(grpcStatus(garbage) == (13, "could not decode request message: length-delimited field runs past the end of the message"))
        var small = TestProtos.server()
        small.maxMessageSize = 4
        var router = Router()
        small.install(on: &router)
        let big = router.respond(to: grpcRequest("/test.Payouts/Get", messages: [TestProtos.getRequest("abcdef")]))
        #expect(grpcStatus(big) == (8, "received message larger than max (8 vs. 4)"))
    }

    @Test func unimplementedWording() {
        #expect(grpcStatus(call(grpcRequest("/test.Payouts/Unhandled",
                                            messages: [TestProtos.getRequest("a")]))) == (12, "method Unhandled not implemented"))
        #expect(grpcStatus(call(grpcRequest("/test.Payouts/Nope", messages: []))) == (12, "unknown method Nope for service test.Payouts"))
        #expect(grpcStatus(call(grpcRequest("/pkg.Svc/M", messages: []))) == (12, "unknown service pkg.Svc"))
        #expect(grpcStatus(call(grpcRequest("/nothing", messages: []))) == (12, "malformed method name: \"/nothing\""))
        // Requests that are not gRPC still get the router's own answers.
        #expect(call(HTTPRequest(method: "POST", target: "/pkg.Svc/M")).status == 404)
        #expect(call(HTTPRequest(method: "GET", target: "/sandbox/health")).bodyText == "ok")
    }

    @Test func theHandlerMustAnswerTheOutputType() {
        let response = call(grpcRequest("/test.Payouts/Wrong", messages: [TestProtos.getRequest("a")]))
        #expect(grpcStatus(response) == (13, "the handler answered a test.GetRequest, the method returns test.GetResponse"))
    }

    @Test func slowAnswersRaceTheTimeout() {
        let slow = { (delay: Int, timeout: String?) -> HTTPResponse in
            let headers: HTTPHeaders = timeout.map { ["grpc-timeout": $0] } ?? [:]
            return self.call(grpcRequest("/test.Payouts/Slow", messages: [TestProtos.getRequest("s", delay: delay)], headers: headers))
        }
        // Answers that come in time, however long they take, are answered; one that takes 100 ms
        // cannot beat a deadline of 50 ms, however fast the machine.
        #expect(grpcStatus(slow(0, nil)).code == 0)
        #expect(grpcStatus(slow(10, "\(Waiting.seconds)S")).code == 0)
        let late = slow(100, "50m")
        #expect(grpcStatus(late) == (4, "deadline exceeded (grpc-timeout)"))
        #expect(late.body.isEmpty)
        #expect(grpcStatus(get("a", headers: ["grpc-timeout": "0n"])).code == 4)
        #expect(grpcStatus(get("a", headers: ["grpc-timeout": "1x"])) == (13, "malformed grpc-timeout: \"1x\""))
    }

    @Test func metricsCountByMethodAndCode() {
        let server = TestProtos.server()
        let router = TestProtos.router(server)
        for id in ["a", "b", "missing"] {
            _ = router.respond(to: grpcRequest("/test.Payouts/Get", messages: [TestProtos.getRequest(id)])).resolved
        }
        _ = router.respond(to: grpcRequest("/pkg.Svc/M", messages: [])).resolved
        _ = router.respond(to: grpcRequest("/test.Payouts/Slow", messages: [TestProtos.getRequest("s", delay: 1)])).resolved
        #expect(server.metrics.count(method: "/test.Payouts/Get", code: .ok) == 2)
        #expect(server.metrics.count(method: "/test.Payouts/Get", code: .notFound) == 1)
        #expect(server.metrics.count(method: "/test.Payouts/Slow", code: .ok) == 1)
        var text = ""
        server.metrics.render(into: &text)
        #expect(text.hasPrefix("# HELP cashout_sandbox_grpc_requests_total "))
        #expect(text.contains("# TYPE cashout_sandbox_grpc_requests_total counter\n"))
        #expect(text.contains("cashout_sandbox_grpc_requests_total{method=\"/test.Payouts/Get\",code=\"OK\"} 2\n"))
        #expect(text.contains("cashout_sandbox_grpc_requests_total{method=\"/test.Payouts/Get\",code=\"NOT_FOUND\"} 1\n"))
        #expect(text.contains("cashout_sandbox_grpc_requests_total{method=\"unknown\",code=\"UNIMPLEMENTED\"} 1\n"))
        #expect(!text.contains("Health"))
    }
}

private func == (lhs: (code: Int?, message: String?), rhs: (Int, String)) -> Bool {
    lhs.code == rhs.0 && lhs.message == rhs.1
}
