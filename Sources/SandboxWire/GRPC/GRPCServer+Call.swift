import Dispatch
import Synchronization

// The checks every call goes through, and the unary call itself. Error mappings:
//   content-type not application/grpc[+proto][;…]   Connect for application/json and application/proto
//                                                    (GRPCServer+Connect); else HTTP 415, a text body (grpc-go's wording)
//   gRPC content type over HTTP/1.x                  HTTP 505 with a text body: use h2c prior knowledge
//   grpc-encoding other than identity                UNIMPLEMENTED, with grpc-accept-encoding: identity
//   compressed flag set (no encoding negotiated)     INTERNAL
//   malformed grpc-timeout                           INTERNAL "malformed grpc-timeout" (grpc-go's status)
//   -bin metadata that is not base64                 INTERNAL
//   message over maxMessageSize                      RESOURCE_EXHAUSTED "received message larger than max"
//   body ends inside a message                       INTERNAL
//   zero or several request messages (unary)         UNIMPLEMENTED: statuscodes.md's "cardinality
//                                                    violation" (grpc-go answers INTERNAL for several)
//   request message that does not decode             INTERNAL "could not decode request message: …"
//   timeout 0, or a deferred answer too late         DEADLINE_EXCEEDED (the late answer is dropped)
//   declared method without a handler                UNIMPLEMENTED "method M not implemented"

extension GRPCServer {
    enum Preflight {
        case refused(HTTPResponse)
        case accepted(GRPCCallContext)
    }

    /// Whether the request says it is gRPC: `application/grpc`, `application/grpc+proto`, with
    /// optional parameters.
    package static func isGRPC(_ request: HTTPRequest) -> Bool {
        let mediaType = GRPCMetadata.mediaType(request.headers["content-type"])
        return mediaType == "application/grpc" || mediaType == "application/grpc+proto"
    }

    func preflight(_ request: HTTPRequest, path: String) -> Preflight {
        guard Self.isGRPC(request) else {
            let type = request.headers["content-type"] ?? ""
            // curl -d sends a form's type unless told: name both protocols the path speaks.
            return .refused(.text("invalid gRPC request content-type \"\(type)\": send application/grpc (gRPC over HTTP/2), "
                                      + "or application/json or application/proto (Connect)", status: 415))
        }
        guard request.version == .http2 else { return .refused(Self.needsHTTP2()) }
        if let encoding = request.headers["grpc-encoding"], encoding != "identity" {
            var response = Self.trailersOnly(GRPCStatus(.unimplemented,
                "grpc-encoding \"\(encoding)\" is not supported: the sandbox supports identity encoding only"))
            response.headers.add("grpc-accept-encoding", "identity")
            return .refused(response)
        }
        var deadline: DispatchTime?
        if let timeout = request.headers["grpc-timeout"] {
            guard let nanoseconds = GRPCTimeout.nanoseconds(timeout) else {
                return .refused(Self.trailersOnly(GRPCStatus(.internal, "malformed grpc-timeout: \"\(timeout)\""), metadata: [:]))
            }
            deadline = DispatchTime(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds + UInt64(nanoseconds))
        }
        do {
            let metadata = try GRPCMetadata(requestHeaders: request.headers)
            return .accepted(GRPCCallContext(method: path, metadata: metadata, remoteAddress: request.remoteAddress,
                                             deadline: deadline, request: request))
        } catch {
            return .refused(Self.trailersOnly(error))
        }
    }

    func respondUnary(method: MethodSchema, context: GRPCCallContext, handler: GRPCUnaryHandler?) -> HTTPResponse {
        var deframer = GRPCDeframer(maxMessageSize: maxMessageSize)
        let messages: [[UInt8]]
        do {
            messages = try deframer.append(context.request.body)
        } catch {
            return Self.trailersOnly(error)
        }
        if deframer.hasPartialMessage { return Self.trailersOnly(GRPCStatus(.internal, "the request body ends inside a message")) }
        guard messages.count == 1 else {
            return Self.trailersOnly(GRPCStatus(.unimplemented,
                "cardinality violation: unary method \(context.method) needs exactly one request message, got \(messages.count)"))
        }
        let request: ProtoMessage
        do {
            request = try context.request.decodedMessage { () throws(ProtobufError) in try registry.decode(method.input, from: messages[0]) }
        } catch {
            return Self.trailersOnly(GRPCStatus(.internal, "could not decode request message: \(error)"))
        }
        guard let handler else { return Self.trailersOnly(GRPCStatus(.unimplemented, "method \(method.name) not implemented")) }
        if let deadline = context.deadline, deadline <= DispatchTime.now() { return Self.deadlineExceeded() }
        let reply: GRPCReply
        do {
            reply = try handler(request, context)
        } catch let status as GRPCStatus {
            reply = .failure(status)
        } catch {
            reply = .failure(GRPCStatus(.unknown, "\(error)"))
        }
        // Past the deadline, even a ready answer is not sent: the client has given up on it.
        if let deadline = context.deadline, deadline <= DispatchTime.now() { return Self.deadlineExceeded() }
        return Self.response(to: reply, output: method.output)
    }

    /// The HTTP answer to a resolved reply: the message framed with OK trailers, or trailers-only.
    static func response(to reply: GRPCReply, output: String) -> HTTPResponse {
        switch reply.outcome {
        case .failure(let status):
            var metadata = reply.headers
            metadata.append(contentsOf: reply.trailers)
            var response = trailersOnly(status.code == .ok ? GRPCStatus(.unknown, "the handler failed with status OK") : status, metadata: metadata)
            response.diagnosis = reply.diagnosis
            return response
        case .message(let message):
            guard message.schema.fullName == output else {
                return trailersOnly(GRPCStatus(.internal, "the handler answered a \(message.schema.fullName), the method returns \(output)"))
            }
            var headers: HTTPHeaders = ["content-type": "application/grpc"]
            reply.headers.write(into: &headers)
            var trailers: HTTPHeaders = ["grpc-status": "0"]
            reply.trailers.write(into: &trailers)
            return HTTPResponse(status: 200, headers: headers, body: GRPCDeframer.frame(message.encoded()), trailers: trailers)
        }
    }

    /// A response of headers only (HTTP 200): the status, with `metadata`.
    package static func trailersOnly(_ status: GRPCStatus, metadata: GRPCMetadata = [:]) -> HTTPResponse {
        var headers: HTTPHeaders = ["content-type": "application/grpc", "grpc-status": String(status.code.rawValue)]
        if !status.message.isEmpty { headers.add("grpc-message", GRPCStatus.percentEncoded(status.message)) }
        metadata.write(into: &headers)
        return HTTPResponse(status: 200, headers: headers)
    }

    /// What counting an answer that comes later needs.
    private struct Metering: Sendable {
        let metrics: GRPCMetrics
        let path: String?
    }

    static func deadlineExceeded() -> HTTPResponse {
        trailersOnly(GRPCStatus(.deadlineExceeded, "deadline exceeded (grpc-timeout)"))
    }

    /// gRPC over HTTP/1.x: refused with a hint.
    static func needsHTTP2() -> HTTPResponse {
        .text("gRPC needs HTTP/2: connect with h2c prior knowledge (cleartext HTTP/2 from the first byte, "
            + "as grpcurl -plaintext and grpc clients with insecure credentials do)\n", status: 505)
    }

    /// `response`, counted in ``metrics`` by its grpc-status when it is produced (answers that
    /// are not gRPC, such as 415, are not counted).
    func metered(_ response: HTTPResponse, path: String?) -> HTTPResponse {
        // An answer made at once (every unary one) is counted in place, without a context for `map`.
        guard response.isDeferred else {
            if let code = response.grpcStatus { metrics.record(method: path, code: code) }
            return response
        }
        return response.map(Metering(metrics: metrics, path: path)) { metering, response in
            if let code = response.grpcStatus { metering.metrics.record(method: metering.path, code: code) }
            return response
        }
    }
}
