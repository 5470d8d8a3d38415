import SandboxBank
import SandboxWire
package import SandboxSupport

// How `GET /sandbox/requests` shows an entry (the Testing your app guide, "Why did my request fail?"): header names
// lowercased (repeated ones joined with ", "), a gRPC response's trailers among its headers, and
// each body as proto3 JSON when it is a gRPC or Connect message of a method the sandbox serves
// (`json-from-protobuf`), as text when it is UTF-8 (without NUL, and not a protobuf type), else base64.

extension RequestLog {
    /// The entry as the admin API shows it.
    package func json(_ entry: Entry) -> JSON {
        let request = entry.request, response = entry.response
        let path = request.path
        var responseHeaders = response.headers
        for (name, value) in response.trailers ?? [:] { responseHeaders.add(name, value) }
        var answer = body(response.body, truncated: entry.responseTruncated, contentType: response.headers["content-type"],
                          grpcPath: entry.route == nil ? nil : path, isRequest: false)
        answer["status"] = .number(response.status)
        answer["headers"] = Self.headers(responseHeaders)
        var json = body(request.body, truncated: entry.requestTruncated, contentType: request.headers["content-type"],
                        grpcPath: entry.route == nil ? nil : path, isRequest: true)
        json["id"] = .number(entry.id)
        json["at"] = .string(entry.at.iso8601)
        json["received_at"] = .string(EventLog.timestamp(entry.receivedAt))
        json["method"] = .string(request.method)
        json["path"] = .string(String(path))
        json["query"] = request.queryString.map { .string(String($0)) } ?? .null
        json["protocol"] = .string(request.version.text)
        json["headers"] = Self.headers(request.headers)
        json["route"] = entry.route.map(JSON.string) ?? .null
        json["dialect"] = entry.dialect.map(JSON.string) ?? .null
        json["response"] = .object(answer)
        json["diagnosis"] = response.diagnosis?.json ?? .null
        json["near_miss"] = response.nearMiss.map(JSON.string) ?? .null
        return .object(json)
    }

    /// `{"content-type": "application/json", …}`.
    private static func headers(_ headers: HTTPHeaders) -> JSON {
        var object: [String: JSON] = [:]
        for (name, value) in headers {
            let name = name.lowercased()
            object[name] = object[name]?.stringValue.map { .string($0 + ", " + value) } ?? .string(value)
        }
        return .object(object)
    }

    /// `body`, `body_encoding` and `body_truncated`.
    private func body(_ bytes: [UInt8], truncated: Bool, contentType: String?, grpcPath: Substring?, isRequest: Bool) -> [String: JSON] {
        let (text, encoding): (String, String)
        if !truncated, let grpcPath, let message = grpc.messageJSON(path: grpcPath, contentType: contentType, body: bytes, isRequest: isRequest) {
            (text, encoding) = (message.serializedString(), "json-from-protobuf")
        } else if !Self.isProtobuf(contentType), let utf8 = Self.text(bytes, truncated: truncated) {
            (text, encoding) = (utf8, "utf8")
        } else {
            (text, encoding) = (Base64.encode(bytes), "base64")
        }
        return ["body": .string(text), "body_encoding": .string(encoding), "body_truncated": .bool(truncated)]
    }

    /// Whether the content type is gRPC's or Connect's binary one: no text, even when its bytes decode as UTF-8.
    private static func isProtobuf(_ contentType: String?) -> Bool {
        guard let type = contentType?.lowercased() else { return false }
        return type.hasPrefix("application/grpc") || type.hasPrefix("application/proto")
    }

    /// The bytes as UTF-8 text without NUL (which text does not hold), if they are; a body cut
    /// inside a character loses that character.
    private static func text(_ bytes: [UInt8], truncated: Bool) -> String? {
        guard !bytes.contains(0) else { return nil }
        var bytes = bytes[...]
        for _ in 0 ..< (truncated ? 4 : 1) {
            if let text = String(validating: bytes, as: UTF8.self) { return text }
            guard !bytes.isEmpty else { break }
            bytes = bytes.dropLast()
        }
        return nil
    }
}
