public import SandboxBank
package import SandboxContract
package import SandboxWire
import SandboxSupport
import Synchronization

/// The built-in webhook receivers, `/sandbox/sink/{name}`: each records what it receives and
/// answers from a script (e.g. `[500, 500, 200]`, one status per request, then 200).
///
/// Scripted as a handler (`SinkScript.checkSignatures`, `.deduplicate`), a sink reads each
/// request as one of the sandbox's notifications (its dialect's `readNotification`) before it
/// answers: a wrong signature is refused with 401, a notification it processed already is
/// answered 200 and not processed again; only what it processes takes a scripted answer.
public final class SinkStore: Sendable {
    /// One request a sink received.
    public struct Received: Sendable {
        /// When it came, on the sandbox's clock.
        public let at: VirtualTime
        /// Its HTTP method, `POST` for the sandbox's notifications.
        public let method: String
        /// Its path, under `/sandbox/sink/{name}`.
        public let path: String
        /// Its `Content-Type`, if it had one.
        public let contentType: String?
        /// The body: received over HTTP, or rendered when first read (a notification delivered
        /// in-process keeps only what it takes to render it, which load scenarios need).
        public var body: String { content.text }
        /// The header fields: every one received over HTTP; for a notification delivered in
        /// process, `Content-Type` and those its dialect adds (a signature).
        package var headers: HTTPHeaders { content.headers(contentType) }
        package let content: Content
        /// The status the sink answered.
        public let answered: Int
        /// What the sink did with it.
        public let verdict: Verdict
        /// Why it was refused or failed.
        public let reason: String?
        /// The notification it is, as a handler sink read it when it came (see `SinkStore.read`).
        let reading: ReceivedNotification?
    }

    /// What a sink did with a request.
    public enum Verdict: String, Sendable, CaseIterable {
        /// Answered 2xx and acted on.
        case processed
        /// Answered a scripted non-2xx: not acted on (its retry will be).
        case failed
        /// A notification processed already: answered 200, not acted on again.
        case duplicate
        /// Its signature is wrong (or it is no notification of the sandbox's APIs): answered 401.
        case refused
    }

    /// A received body, or how to render one.
    package enum Content: Sendable {
        case text(String, headers: HTTPHeaders)
        case rendered(@Sendable () -> String, headers: @Sendable (_ body: String) -> HTTPHeaders)

        package var text: String {
            switch self {
            case .text(let text, _): text
            case .rendered(let render, _): render()
            }
        }

        package func headers(_ contentType: String?) -> HTTPHeaders {
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

    /// What counting needs of each request a sink received, kept for every one (16 bytes) while
    /// only the last `kept` requests are kept whole.
    public struct Tally: Sendable {
        /// The cashout it notified about, and its status, when it is one of the sandbox's notifications.
        public let payoutID: Int?
        /// The status it notified, when it is one of the sandbox's notifications that names one.
        public let status: PayoutStatus?
        /// What the sink did with it.
        public let verdict: Verdict
    }

    /// What a sink did with a request, and the one it pushed out (freed outside the lock).
    private struct Recorded {
        let answered: Int
        let verdict: Verdict
        let reason: String?
        let pushedOut: Received?
    }

    private struct Sink {
        var received: Ring<Received>
        var tallies = ChunkedArray<Tally>()  // in chunks: no array twice the size to copy into as it grows
        var script = SinkScript()
        /// The identities (`ReceivedNotification.identity`) of the notifications it processed.
        var processed = Set<String>()

        init(keeping kept: Int) {
            received = Ring(capacity: kept)
        }

        /// It reads what it receives and acts on it (`SinkScript.checkSignatures`, `.deduplicate`).
        var isHandler: Bool { script.checkSignatures || script.deduplicate }

        /// Decides what to do with a request (`reading`: as a handler read it; `about`: the
        /// notification it is), records it, and returns what it did with the request it pushed out.
        mutating func receive(_ reading: ReceivedNotification?, about: (payoutID: Int, status: PayoutStatus?)?,
                              _ request: (Int, Verdict, String?) -> Received) -> Recorded {
            let (answer, verdict, reason): (Int, Verdict, String?)
            let problem = reading == nil ? "not a notification of the sandbox's APIs" : reading?.problem
            if script.checkSignatures, let problem {
                (answer, verdict, reason) = (401, .refused, problem)
            } else if script.deduplicate, let identity = reading?.identity, processed.contains(identity) {
                (answer, verdict, reason) = (200, .duplicate, nil)
            } else {
                answer = script.answers.isEmpty ? 200 : script.answers.removeFirst()
                let succeeded = DeliveryOutcome(status: answer).succeeded
                (verdict, reason) = succeeded ? (.processed, nil) : (.failed, "scripted answer \(answer)")
                if succeeded, let identity = reading?.identity { processed.insert(identity) }
            }
            tallies.append(Tally(payoutID: about?.payoutID, status: about?.status, verdict: verdict))
            return Recorded(answered: answer, verdict: verdict, reason: reason, pushedOut: received.append(request(answer, verdict, reason)))
        }
    }

    /// How many requests each sink keeps whole (`GET /sandbox/sink/{name}`); every one is counted.
    public let kept: Int
    private let sinks = Mutex<[String: Sink]>([:])
    /// Reads a request as one of the sandbox's notifications (every dialect's `readNotification`).
    private let reader = Mutex<(@Sendable (ReceivedRequest) -> ReceivedNotification?)?>(nil)

    /// Sinks that keep the last requests whole.
    ///
    /// - Parameter kept: How many requests each sink keeps whole; every one is counted.
    public init(keeping kept: Int = 1000) {
        self.kept = kept
    }

    /// Sets how requests are read as notifications (once the bank exists).
    package func read(with reader: @escaping @Sendable (ReceivedRequest) -> ReceivedNotification?) {
        self.reader.withLock { $0 = reader }
    }

    /// Records a request received over HTTP and returns the answer: its status, and for a handler
    /// sink a body saying what it did.
    func receive(_ name: String, at: VirtualTime, method: String, path: String, headers: HTTPHeaders,
                         body: String) -> (status: Int, body: JSON?) {
        receive(name, at: at, method: method, path: path, contentType: headers["Content-Type"], content: .text(body, headers: headers), about: nil)
    }

    /// Records a request; `about` is the notification it is when the sandbox sent it (else it is
    /// read to find out).
    func receive(_ name: String, at: VirtualTime, method: String, path: String, contentType: String?,
                         content: Content, about: (payoutID: Int, status: PayoutStatus?)?) -> (status: Int, body: JSON?) {
        let kept = kept
        func record(_ sink: inout Sink, _ content: Content, _ reading: ReceivedNotification?,
                    about: (payoutID: Int, status: PayoutStatus?)?) -> Recorded {
            sink.receive(reading, about: about) { answer, verdict, reason in
                Received(at: at, method: method, path: path, contentType: contentType, content: content, answered: answer, verdict: verdict,
                         reason: reason, reading: reading)
            }
        }
        // A notification the sandbox sent to a plain sink (a load scenario's every one): nothing to
        // read, so recorded at once, under one lock, the sink looked up once.
        if let about {
            let recorded = sinks.withLock { sinks in
                Self.unlessHandler(&sinks[name, default: Sink(keeping: kept)]) { record(&$0, content, nil, about: about) }
            }
            if let recorded { return (recorded.answered, nil) }  // what it pushed out freed here, outside the lock
        }
        var (content, reading) = (content, ReceivedNotification?.none)
        let handler = sinks.withLock { $0[name].map(\.isHandler) ?? false }
        if handler || about == nil {  // rendered now: a handler reads what it got
            let request = ReceivedRequest(contentType: contentType, headers: content.headers(contentType), body: content.text)
            content = .text(request.body, headers: request.headers)
            reading = reader.withLock { $0 }?(request)
        }
        let about = about ?? reading.map { ($0.payoutID, $0.status) }
        if !handler { reading = nil }  // read only to count it: a plain sink acts on nothing
        let recorded = sinks.withLock { [content, reading] sinks in
            record(&sinks[name, default: Sink(keeping: kept)], content, reading, about: about)
        }  // what it pushed out is freed with `recorded`, outside the lock
        guard handler else { return (recorded.answered, nil) }
        var answer: [String: JSON] = ["received": true, "verdict": .string(recorded.verdict.rawValue)]
        answer["reason"] = recorded.reason.map(JSON.string)
        return (recorded.answered, .object(answer))
    }

    /// `body` applied to `sink`, in place, unless it is a handler: nil then.
    private static func unlessHandler<T>(_ sink: inout Sink, _ body: (inout Sink) -> T) -> T? {
        sink.isHandler ? nil : body(&sink)
    }

    /// The notification a received request is, as the sink reads it (nil: none of the sandbox's).
    package func read(_ received: Received) -> ReceivedNotification? {
        received.reading
            ?? reader.withLock { $0 }?(ReceivedRequest(contentType: received.contentType, headers: received.headers, body: received.body))
    }

    /// The last requests a sink received, oldest first.
    ///
    /// - Parameter name: The sink's name, as in `/sandbox/sink/{name}`.
    /// - Returns: At most ``kept`` requests; none for a sink that received nothing.
    public func received(_ name: String) -> [Received] {
        sinks.withLock { $0[name]?.received.inOrder ?? [] }
    }

    /// How many requests a sink received in all, kept whole or not.
    ///
    /// - Parameter name: The sink's name.
    /// - Returns: The count, 0 for a sink that received nothing.
    public func receivedCount(_ name: String) -> Int {
        sinks.withLock { $0[name]?.tallies.count ?? 0 }
    }

    /// How many of the requests a sink received pass a test, by what it did with them.
    ///
    /// - Parameters:
    ///   - name: The sink's name.
    ///   - test: Which requests to count, by their ``Tally``.
    /// - Returns: The count of each verdict among those requests.
    public func counts(_ name: String, where test: (Tally) -> Bool) -> [Verdict: Int] {
        sinks.withLock { sinks in
            var counts: [Verdict: Int] = [:]
            for tally in sinks[name]?.tallies ?? [] where test(tally) { counts[tally.verdict, default: 0] += 1 }
            return counts
        }
    }

    /// A sink's script now: the answers still scripted, and its handler flags.
    func script(_ name: String) -> SinkScript {
        sinks.withLock { $0[name]?.script ?? SinkScript() }
    }

    /// The answers still scripted for a sink.
    ///
    /// - Parameter name: The sink's name.
    /// - Returns: The HTTP statuses it will answer next, in order; empty: 200 from now on.
    public func answers(_ name: String) -> [Int] {
        script(name).answers
    }

    /// Scripts a sink's next answers, keeping its handler flags.
    ///
    /// - Parameters:
    ///   - name: The sink's name.
    ///   - answers: The HTTP statuses it answers next, one per request; 200 once they are used up.
    public func script(_ name: String, answers: [Int]) {
        sinks.withLock { [kept] in $0[name, default: Sink(keeping: kept)].script.answers = answers }
    }

    /// Scripts a sink: its next answers and its handler flags. What it processed stays processed.
    func script(_ name: String, _ script: SinkScript) {
        sinks.withLock { [kept] in $0[name, default: Sink(keeping: kept)].script = script }
    }

    /// Forgets every sink.
    public func clearAll() {
        sinks.withLock { $0.removeAll() }
    }

    /// Forgets a sink's requests and script.
    ///
    /// - Parameter name: The sink's name.
    public func clear(_ name: String) {
        sinks.withLock { _ = $0.removeValue(forKey: name) }
    }
}
