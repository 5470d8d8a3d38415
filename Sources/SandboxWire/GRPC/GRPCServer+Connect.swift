import SandboxSupport

// Connect's unary protocol (https://connectrpc.com/docs/protocol/#unary-request): the same unary
// methods over plain HTTP, 1.1 or 2, for curl and Postman. `POST /package.Service/Method` with
// `Content-Type: application/json` (proto3 JSON: field names or lowerCamelCase, enums by name or
// number, 64-bit integers as strings or numbers) or `application/proto` (the bare message, not
// framed). Metadata are ordinary headers, `-bin` ones base64.
// Success: 200, the response message in the request's encoding, header metadata as headers and
// trailer metadata as `trailer-` headers. Failure: Connect's HTTP status for the code and
// `{"code":"not_found","message":"…"}`. `Connect-Timeout-Ms` and streaming methods are not
// served this way (a streaming method answers `unimplemented`).
extension GRPCServer {
    enum ConnectEncoding {
        case json
        case proto
    }

    /// The Connect encoding a request's content type names, if it names one.
    static func connectEncoding(_ request: HTTPRequest) -> ConnectEncoding? {
        switch GRPCMetadata.mediaType(request.headers["content-type"]) {
        case "application/json": return .json
        case "application/proto": return .proto
        default: return nil
        }
    }

    /// A Connect unary call of `method`, counted in ``metrics`` when answered.
    func respondConnect(to request: HTTPRequest, path: String, method: MethodSchema, encoding: ConnectEncoding) -> HTTPResponse {
        let metrics = metrics
        @Sendable func answered(_ response: HTTPResponse, _ code: GRPCStatus.Code) -> HTTPResponse {
            metrics.record(method: path, code: code)
            return response
        }
        @Sendable func failure(_ status: GRPCStatus, _ metadata: GRPCMetadata = [:]) -> HTTPResponse {
            answered(Self.connectError(status, metadata), status.code)
        }
        guard method.isUnary, let handler = unaryHandlers[path] else {
            return failure(Self.notServedByConnect(path))
        }
        let context: GRPCCallContext
        do {
            context = GRPCCallContext(method: path, metadata: try GRPCMetadata(requestHeaders: request.headers),
                                      remoteAddress: request.remoteAddress, request: request)
        } catch {
            return failure(error)
        }
        let message: ProtoMessage
        do {
            message = switch encoding {
            // The body as JSON, read once for every reader; not JSON, read again for the parser's error.
            case .json where request.body.isEmpty: try registry.decode(method.input, json: .object([:]))
            case .json: try request.jsonBody.map { json throws(ProtobufError) in try registry.decode(method.input, json: json) }
                ?? registry.decode(method.input, jsonText: request.body)
            case .proto: try request.decodedMessage { () throws(ProtobufError) in try registry.decode(method.input, from: request.body) }
            }
        } catch {
            return failure(Self.undecodable(error))
        }
        let reply: GRPCReply
        do {
            reply = try handler(message, context)
        } catch let status as GRPCStatus {
            reply = .failure(status)
        } catch {
            reply = .failure(GRPCStatus(.unknown, "\(error)"))
        }
        let output = method.output
        func response(to reply: GRPCReply) -> HTTPResponse {
            switch reply.outcome {
            case .failure(let status):
                var metadata = reply.headers
                metadata.append(contentsOf: reply.trailers)
                var response = failure(status, metadata)
                response.diagnosis = reply.diagnosis
                return response
            case .message(let message) where message.schema.fullName == output:
                var headers: HTTPHeaders = ["content-type": encoding == .json ? "application/json" : "application/proto"]
                reply.headers.write(into: &headers)
                var trailers = HTTPHeaders()
                reply.trailers.write(into: &trailers)
                for (name, value) in trailers { headers.add("trailer-" + name, value) }
                let body = encoding == .json ? message.json().serialized() : message.encoded()
                return answered(HTTPResponse(status: 200, headers: headers, body: body), .ok)
            case .message(let message):
                return failure(GRPCStatus(.internal, "the handler answered a \(message.schema.fullName), the method returns \(output)"))
            }
        }
        return response(to: reply)
    }

    /// The status of a Connect call to a method with no unary handler (streaming, or not written yet).
    static func notServedByConnect(_ path: String) -> GRPCStatus {
        GRPCStatus(.unimplemented, "\(path) is not served as a Connect unary call")
    }

    /// The status of a Connect call whose request message does not decode.
    package static func undecodable(_ error: any Error) -> GRPCStatus {
        GRPCStatus(.invalidArgument, "could not decode request message: \(error)")
    }

    /// A Connect error: the code's HTTP status, and `{"code","message"}`.
    package static func connectError(_ status: GRPCStatus, _ metadata: GRPCMetadata = [:]) -> HTTPResponse {
        var body: [String: JSON] = ["code": .string(status.code.connectName)]
        if !status.message.isEmpty { body["message"] = .string(status.message) }
        var response = HTTPResponse.json(.object(body), status: status.code.connectHTTPStatus)
        metadata.write(into: &response.headers)
        return response
    }
}

extension GRPCStatus.Code {
    /// Connect's name for the code: `not_found` (and `canceled`, with one l).
    package var connectName: String {
        self == .cancelled ? "canceled" : name.lowercased()
    }

    /// The HTTP status Connect answers a unary call that ends with this code.
    package var connectHTTPStatus: Int {
        switch self {
        case .ok: 200
        case .cancelled: 499
        case .unknown, .internal, .dataLoss: 500
        case .invalidArgument, .failedPrecondition, .outOfRange: 400
        case .deadlineExceeded: 504
        case .notFound: 404
        case .alreadyExists, .aborted: 409
        case .permissionDenied: 403
        case .resourceExhausted: 429
        case .unimplemented: 501
        case .unavailable: 503
        case .unauthenticated: 401
        }
    }
}
