package import Dispatch
import Synchronization
package import SandboxSupport

/// A response: status, headers and body. `Content-Length` is written from `body.count` when the
/// response is sent, so it is always true.
///
/// ```swift
/// HTTPResponse.json(["status": "ok"])
/// HTTPResponse(status: 204)
/// ```
@usableFromInline package struct HTTPResponse: Sendable {
    /// The status code, e.g. 200.
    package var status: Int
    /// Header fields; `Content-Length`, `Date` and `Connection` are added by the server.
    package var headers: HTTPHeaders
    /// The body bytes.
    package var body: [UInt8]
    /// Fields sent after the body (HTTP/2 only: gRPC's `grpc-status` and `grpc-message`); nil for
    /// none. Over HTTP/1.1 they are left out.
    package var trailers: HTTPHeaders?

    /// Creates a response.
    package init(status: Int = 200, headers: HTTPHeaders = [:], body: [UInt8] = [], trailers: HTTPHeaders? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.trailers = trailers
    }

    /// A JSON response with sorted keys and `Content-Type: application/json`.
    package static func json(_ value: JSON, status: Int = 200) -> HTTPResponse {
        json(serialized: value.serialized(), status: status)
    }

    /// A JSON response of a body already serialized, with `Content-Type: application/json`.
    package static func json(serialized body: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: jsonHeaders, body: body)
    }

    /// Made once: every JSON answer shares them (until one adds a header of its own).
    private static let jsonHeaders: HTTPHeaders = ["Content-Type": "application/json"]

    /// A plain-text response (`text/plain; charset=utf-8`).
    package static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// The number of the ``Router`` route that answered (``Router/routeNames``); 0 when none did.
    /// The server's ``HTTPMetrics`` count by it.
    package internal(set) var route = Router.unmatched

    /// Close the connection instead of answering (see ``closeWithoutAnswer``).
    var dropsConnection = false

    /// ``diagnosis`` and ``nearMiss``: for people, never sent.
    var notes: Notes?

    /// The gate this response waits for (``held(by:until:)``); the server holds it until then.
    var hold: ResponseHold?

    /// No answer at all: the server closes the connection (after any earlier pipelined
    /// responses), as a network fault or a crashed server would.
    package static var closeWithoutAnswer: HTTPResponse {
        var response = HTTPResponse(status: 0)
        response.dropsConnection = true
        return response
    }

    /// A response produced later: `work` runs on `queue`, and what it returns is sent when it
    /// returns. Meanwhile the event loop goes on serving other connections; this one waits, its
    /// later pipelined requests with it. For work that may block (such as sending webhooks, which
    /// can be addressed to this very server).
    ///
    /// ```swift
    /// router.add("POST /slow") { _ in .later(on: worker) { .text(computeSlowly()) } }
    /// ```
    package static func later(on queue: DispatchQueue, _ work: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse {
        .deferred { answer in queue.async { answer(work()) } }
    }

    /// Starts work that answers by calling its argument, from any thread (see ``deferred(_:)``).
    @usableFromInline var starter: (@Sendable (@escaping @Sendable (HTTPResponse) -> Void) -> Void)?

    /// A response given when something else is ready: `start` runs at once and must not block;
    /// whatever it (or what it starts) passes to its argument, once, is sent. For answers that
    /// wait on another thread's work without holding one (for a journal's sync, see ``held(by:until:)``).
    ///
    /// ```swift
    /// return .deferred { answer in mailer.send(message) { sent in answer(.text(sent ? "sent" : "failed")) } }
    /// ```
    package static func deferred(_ start: @escaping @Sendable (@escaping @Sendable (HTTPResponse) -> Void) -> Void) -> HTTPResponse {
        var response = HTTPResponse(status: 0)
        response.starter = start
        return response
    }

    /// This answer passed through `transform` once it is produced: at once for an answer made
    /// already, when it is given for a pending one (``deferred(_:)``, ``later(on:_:)``). No thread
    /// waits: `transform` may itself answer later (return a pending answer), and a pending answer
    /// that answers with another is followed to its end before `transform` sees it.
    ///
    /// `transform` captures nothing: what it needs comes as `context` (a small struct or a class),
    /// so that an answer made at once (nearly all) costs no closure; `context` is kept only for a
    /// pending one. A stage on a hot path whose context would copy the request handles a made answer
    /// in place first (`isDeferred`), as the request log's does.
    ///
    /// ```swift
    /// response.map(journal) { journal, produced in produced.held(by: journal, until: journal.appended) }
    /// response.map(metrics) { metrics, produced in metrics.count(produced); return produced }
    /// ```
    @inlinable
    package func map<Context: Sendable>(_ context: Context,
                                       _ transform: @escaping @Sendable (Context, HTTPResponse) -> HTTPResponse) -> HTTPResponse {
        guard let starter else { return transform(context, self) }
        var response = self
        response.starter = { answer in
            starter { produced in produced.resolve { transform(context, $0).resolve(answer) } }
        }
        return response
    }

    /// Passes the answer, once produced (pending ones started, nested ones too), to `answer`:
    /// at once for an answer made already.
    @usableFromInline
    func resolve(_ answer: @escaping @Sendable (HTTPResponse) -> Void) {
        guard let starter else { return answer(self) }
        starter { $0.resolve(answer) }
    }

    /// Whether the real response is produced later (``later(on:_:)``, ``deferred(_:)``).
    package var isDeferred: Bool { starter != nil }

    /// Whether this answer is a dropped connection (``closeWithoutAnswer``).
    package var isDroppedConnection: Bool { dropsConnection }

    /// The final response: the calling thread waits for a deferred answer (nested ones too). A
    /// response held by a gate stays held (the server holds it; ``resolved`` waits for it). Never
    /// on an event loop's thread, nor on the queue a ``later(on:_:)`` answer runs on: an answer
    /// produced there would wait for the thread that waits for it.
    var flattened: HTTPResponse {
        guard let starter else { return self }
        let answer = Mutex<HTTPResponse?>(nil)
        let ready = DispatchSemaphore(value: 0)
        starter { response in
            answer.withLock { $0 = response }
            ready.signal()
        }
        ready.wait()
        return answer.withLock { $0 ?? HTTPResponse(status: 500) }.flattened
    }

    /// The response as a caller outside the server sees it: ``flattened``, once its gate lets it
    /// go (see ``held(by:until:)``), with a dropped connection as status 0.
    package var resolved: HTTPResponse {
        var final = flattened
        if let hold = final.hold { final = hold.wait(final) }
        return final.dropsConnection ? HTTPResponse(status: 0) : final
    }

    /// The body decoded as UTF-8 (for clients and tests).
    package var bodyText: String { String(decoding: body, as: UTF8.self) }
}
