import SandboxBank
import SandboxHTTP
import Synchronization

/// The built-in webhook receivers, `/sandbox/sink/{name}`: each records what it receives and
/// answers from a script (e.g. `[500, 500, 200]`, one status per request, then 200).
public final class SinkStore: Sendable {
    /// One request a sink received.
    public struct Received: Sendable {
        public let at: VirtualTime
        public let method: String
        public let path: String
        public let contentType: String?
        /// The body: received over HTTP, or rendered when first read (a notification delivered
        /// in-process keeps only what it takes to render it, which load scenarios need).
        public var body: String { content.text }
        /// The header fields: every one received over HTTP; for a notification delivered in
        /// process, `Content-Type` and those its dialect adds (a signature).
        public var headers: HTTPHeaders { content.headers(contentType) }
        let content: Content
        /// The status the sink answered.
        public let answered: Int
    }

    /// A received body, or how to render one.
    enum Content: Sendable {
        case text(String, headers: HTTPHeaders)
        case rendered(@Sendable () -> String, headers: @Sendable (_ body: String) -> HTTPHeaders)

        var text: String {
            switch self {
            case .text(let text, _): text
            case .rendered(let render, _): render()
            }
        }

        func headers(_ contentType: String?) -> HTTPHeaders {
            switch self {
            case .text(_, let headers): return headers
            case .rendered(let render, let extra):
                var headers: HTTPHeaders = [:]
                if let contentType { headers.add("Content-Type", contentType) }
                for field in extra(render()) { headers.add(field.name, field.value) }
                return headers
            }
        }
    }

    private struct Sink {
        var received: [Received] = []
        var answers: [Int] = []

        /// Records a request with the next scripted answer (200 when none is left); returns the answer.
        mutating func receive(_ request: (_ answer: Int) -> Received) -> Int {
            let answer = answers.isEmpty ? 200 : answers.removeFirst()
            received.append(request(answer))
            return answer
        }
    }

    private let sinks = Mutex<[String: Sink]>([:])

    public init() {}

    /// Records a request and returns the status to answer with.
    func receive(_ name: String, at: VirtualTime, method: String, path: String, headers: HTTPHeaders, body: String) -> Int {
        receive(name, at: at, method: method, path: path, contentType: headers["Content-Type"], content: .text(body, headers: headers))
    }

    func receive(_ name: String, at: VirtualTime, method: String, path: String, contentType: String?, content: Content) -> Int {
        sinks.withLock { sinks in
            sinks[name, default: Sink()].receive { answer in
                Received(at: at, method: method, path: path, contentType: contentType, content: content, answered: answer)
            }
        }
    }

    /// What a sink has received, oldest first.
    public func received(_ name: String) -> [Received] {
        sinks.withLock { $0[name]?.received ?? [] }
    }

    /// The answers still scripted for a sink.
    public func answers(_ name: String) -> [Int] {
        sinks.withLock { $0[name]?.answers ?? [] }
    }

    /// Scripts a sink's next answers.
    public func script(_ name: String, answers: [Int]) {
        sinks.withLock { $0[name, default: Sink()].answers = answers }
    }

    /// Forgets every sink.
    public func clearAll() {
        sinks.withLock { $0.removeAll() }
    }

    /// Forgets a sink's requests and script.
    public func clear(_ name: String) {
        sinks.withLock { _ = $0.removeValue(forKey: name) }
    }
}
