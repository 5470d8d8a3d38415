@testable import SandboxSupport
import TestHelpers

/// JSON requests over one ``KeepAliveConnection``, as an integration's HTTP client sends them:
/// the connection stays open between requests and is opened again when the server closed it.
/// One per thread (it is not shared).
final class APIClient {
    /// An answer the test did not expect, or a connection that ended without one.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let port: Int
    private var connection: KeepAliveConnection?

    init(port: Int) {
        self.port = port
    }

    /// Sends `body` (JSON text) with `Content-Type: application/json`, signed with D24's
    /// `Payload-Signature` when `secret` is given; the status and the answer's JSON (`.null` when
    /// the body is empty, its text as a string when it is not JSON). A GET whose connection was
    /// closed before any answer (the server's idle timeout) is sent once more on a new one.
    func call(_ method: String, _ path: String, _ body: String = "", signedWith secret: String? = nil) throws(Failure) -> (status: Int, body: JSON) {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
        if let secret { head += "Payload-Signature: \(D24Signing.payloadSignature(body, secret: secret))\r\n" }
        let request = Array((head + "\r\n" + body).utf8)
        for attempt in 0 ..< 2 {
            let reused = connection != nil
            guard let open = connection ?? KeepAliveConnection(port: port) else {
                throw Failure(description: "\(method) \(path): connection refused")
            }
            connection = open
            switch open.exchange(request) {
            case .response(let status, let closes, let bytes):
                if closes { connection = nil }
                let json = bytes.isEmpty ? JSON.null : (try? JSON.parse(bytes)) ?? .string(String(decoding: bytes, as: UTF8.self))
                return (status, json)
            case .closedBeforeResponse where reused && attempt == 0 && method == "GET":
                connection = nil
            case .closedBeforeResponse:
                connection = nil
                throw Failure(description: "\(method) \(path): the connection closed without an answer")
            case .truncated(let received):
                connection = nil
                throw Failure(description: "\(method) \(path): the answer was cut after \(received) bytes")
            }
        }
        throw Failure(description: "\(method) \(path): the connection closed without an answer, twice")
    }

    /// The JSON of `GET path`, which must answer 200.
    func get(_ path: String) throws(Failure) -> JSON {
        let (status, body) = try call("GET", path)
        guard status == 200 else { throw Failure(description: "GET \(path): HTTP \(status) \(body.serializedString().prefix(300))") }
        return body
    }
}

extension JSON {
    /// The elements of the array member `key`; empty when there is none.
    func list(_ key: String) -> [JSON] { self[key]?.arrayValue ?? [] }

    /// The string member `key`; empty when there is none.
    func text(_ key: String) -> String { self[key]?.stringValue ?? "" }
}
