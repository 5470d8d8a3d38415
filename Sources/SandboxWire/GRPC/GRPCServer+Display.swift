package import SandboxSupport

extension GRPCServer {
    /// The message a call's body carries, as proto3 JSON, for people reading what was sent (the
    /// request log): the request's (`isRequest`) or the response's message of the method at
    /// `path`, framed (gRPC) or bare (Connect's `application/proto`). Nil when the body is not
    /// exactly one whole message of that type, or is another content type (Connect's JSON is
    /// text already).
    package func messageJSON(path: some StringProtocol, contentType: String?, body: [UInt8], isRequest: Bool) -> JSON? {
        message(path: path, contentType: contentType, body: body, isRequest: isRequest)?.json()
    }

    /// A request's message as proto3 JSON, as ``messageJSON(path:contentType:body:isRequest:)`` reads it,
    /// decoded once for the request's every reader (``HTTPRequest/decoded``): its handler decodes no more.
    package func requestMessageJSON(_ request: HTTPRequest) -> JSON? {
        let contentType = request.headers["content-type"]
        switch GRPCMetadata.mediaType(contentType) {
        case "application/grpc", "application/grpc+proto", "application/proto": break
        default: return nil  // JSON: read as JSON
        }
        guard let decoded = request.decoded else {
            return messageJSON(path: request.path, contentType: contentType, body: request.body, isRequest: true)
        }
        struct NoMessage: Error {}
        do {
            _ = try decoded.message({ () throws(NoMessage) in
                guard let message = message(path: request.path, contentType: contentType, body: request.body, isRequest: true) else {
                    throw NoMessage()
                }
                return message
            })
        } catch {
            return nil
        }
        return decoded.json { nil }  // the message's view
    }

    private func message(path: some StringProtocol, contentType: String?, body: [UInt8], isRequest: Bool) -> ProtoMessage? {
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
        return try? registry.decode(isRequest ? method.input : method.output, from: message)
    }
}

extension HTTPRequest {
    /// Its message, decoded by `decode` once for every reader when it carries a ``DecodedBody``
    /// (its proto3 JSON, for the readers of JSON, made from the message when asked).
    func decodedMessage(_ decode: () throws(ProtobufError) -> ProtoMessage) throws(ProtobufError) -> ProtoMessage {
        guard let decoded else { return try decode() }
        return try decoded.message(decode)
    }
}

extension ProtoMessage: DecodedMessage {
    /// Its proto3 JSON, for a reader of a request's body as JSON (``DecodedBody``).
    package var jsonView: JSON? { json() }
}
