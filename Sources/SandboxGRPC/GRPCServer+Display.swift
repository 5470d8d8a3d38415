import SandboxJSON
import SandboxProtobuf

extension GRPCServer {
    /// The message a call's body carries, as proto3 JSON, for people reading what was sent (the
    /// request log): the request's (`isRequest`) or the response's message of the method at
    /// `path`, framed (gRPC) or bare (Connect's `application/proto`). Nil when the body is not
    /// exactly one whole message of that type, or is another content type (Connect's JSON is
    /// text already).
    package func messageJSON(path: some StringProtocol, contentType: String?, body: [UInt8], isRequest: Bool) -> JSON? {
        // The type first: it is cheaper to tell than the method, and most bodies a report reads are JSON.
        let message: [UInt8]
        switch GRPCMetadata.mediaType(contentType) {
        case "application/grpc", "application/grpc+proto":
            var deframer = GRPCDeframer(maxMessageSize: body.count)
            guard let messages = try? deframer.append(body), messages.count == 1, !deframer.hasPartialMessage else { return nil }
            message = messages[0]
        case "application/proto":
            message = body
        default:
            return nil
        }
        guard let method = method(at: path) else { return nil }
        return (try? registry.decode(isRequest ? method.input : method.output, from: message))?.json()
    }
}
