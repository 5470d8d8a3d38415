import Dispatch
import Foundation
@testable import SandboxWire

/// A small payout-like service for the tests, with a file it imports.
enum TestProtos {
    static let common = ProtoFile(name: "test/common.proto", package: "test.common", messages: [
        MessageSchema("test.common.Money", [FieldSchema(1, "minor_amount", .int64), FieldSchema(2, "currency", .string)]),
    ])

    static let file = ProtoFile(
        name: "test/payouts.proto", package: "test", dependencies: ["test/common.proto"],
        messages: [
            MessageSchema("test.GetRequest", [FieldSchema(1, "id", .string), FieldSchema(2, "delay_ms", .int32),
                                              FieldSchema(3, "amount", .message("test.common.Money"))]),
            MessageSchema("test.GetResponse", [FieldSchema(1, "id", .string), FieldSchema(2, "status", .enumeration("test.Status"))]),
        ],
        enums: [EnumSchema("test.Status", ["STATUS_UNSPECIFIED": 0, "SUCCESS": 1])],
        services: [ServiceSchema("test.Payouts", [
            MethodSchema("Get", input: "test.GetRequest", output: "test.GetResponse"),
            MethodSchema("Slow", input: "test.GetRequest", output: "test.GetResponse"),
            MethodSchema("Wrong", input: "test.GetRequest", output: "test.GetResponse"),
            MethodSchema("Unhandled", input: "test.GetRequest", output: "test.GetResponse"),
        ])])

    /// The server: Get echoes the id (and the metadata it got, back as metadata); Slow answers
    /// after delay_ms, on the calling thread (as a slow handler does); Wrong answers the wrong message type.
    static func server(configure: (inout GRPCServer) -> Void = { _ in }) -> GRPCServer {
        var server = GRPCServer(files: [common, file])
        let registry = server.registry
        server.handle("/test.Payouts/Get") { request, context in
            if request.string("id") == "missing" { throw GRPCStatus(.notFound, "no payout \"missing\" 100% ✓") }
            if request.string("id") == "boom" { throw TestError() }
            var response = registry.message("test.GetResponse")
            response["id"] = .string(request.string("id"))
            response["status"] = "SUCCESS"
            var reply = GRPCReply.message(response)
            if let user = context.metadata["x-user"] { reply.headers.add("x-user-seen", user) }
            if let trace = context.metadata.binary("x-trace-bin") { reply.trailers.add("x-trace-bin", binary: trace) }
            return reply
        }
        server.handle("/test.Payouts/Slow") { request, _ in
            let delay = Int(request.int("delay_ms"))
            var response = registry.message("test.GetResponse")
            response["id"] = .string(request.string("id"))
            Thread.sleep(forTimeInterval: Double(delay) / 1000)  // a handler that takes its time, as a slow one does
            return .message(response)
        }
        server.handle("/test.Payouts/Wrong") { request, _ in .message(request) }
        configure(&server)
        return server
    }

    static func router(_ server: GRPCServer) -> Router {
        var router = Router()
        router.add("GET /sandbox/health") { _ in .text("ok") }
        server.install(on: &router)
        return router
    }

    static func getRequest(_ id: String, delay: Int = 0) -> [UInt8] {
        var request = server().registry.message("test.GetRequest")
        request["id"] = .string(id)
        request["delay_ms"] = .int(Int64(delay))
        return request.encoded()
    }
}

struct TestError: Error, CustomStringConvertible {
    var description: String { "the handler broke" }
}

/// A gRPC request as the HTTP/2 server hands it over.
func grpcRequest(_ path: String, messages: [[UInt8]], headers: HTTPHeaders = [:], contentType: String = "application/grpc",
                 version: HTTPVersion = .http2) -> HTTPRequest {
    var all: HTTPHeaders = ["content-type": contentType, "te": "trailers"]
    for (name, value) in headers { all.add(name, value) }
    return HTTPRequest(method: "POST", target: path, version: version, headers: all, body: messages.flatMap(GRPCDeframer.frame))
}

/// The grpc-status and grpc-message of a response (trailers, or headers for trailers-only).
func grpcStatus(_ response: HTTPResponse) -> (code: Int?, message: String?) {
    let fields = response.trailers ?? response.headers
    return (fields["grpc-status"].flatMap { Int($0) }, fields["grpc-message"].map(GRPCStatus.percentDecoded))
}

/// Collects what a stream handler writes.
final class StreamCollector {
    var parts: [HTTPStreamPart] = []
    var writer: HTTPStreamWriter { HTTPStreamWriter { self.parts.append($0) } }

    /// The DATA parts, deframed.
    var messages: [[UInt8]] {
        var deframer = GRPCDeframer()
        return parts.flatMap { part -> [[UInt8]] in
            if case .data(let bytes) = part { return (try? deframer.append(bytes)) ?? [] }
            return []
        }
    }

    var trailers: HTTPHeaders? {
        for case .trailers(let trailers) in parts { return trailers }
        return nil
    }
}
