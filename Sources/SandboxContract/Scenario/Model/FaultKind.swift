import SandboxBank
import SandboxSupport
package import SandboxWire

/// A kind of scenario fault, named as a scenario file names it (`"kind": "drop_after_commit"`), and everything a
/// file says of it: what it carries (``Action``), the keys it takes and their schema (``keys``), how they are read
/// (``action(_:node:)``) and what `explore` draws (``exploredRule``). The one declaration of the kinds: the schema, the
/// loader, `explore`, the fault injector, the timeline and the report read it, and no `switch` over it or its
/// ``Action`` has a `default:`, so a new kind is a compile error at each place that must say what it does (the
/// Contributing guide, "Add a fault kind").
package enum FaultKind: String, Sendable, CaseIterable {
    case latency, error, close
    case dropAfterCommit = "drop_after_commit"
    case rateLimit = "rate_limit"
    case truncate

    /// A fault of the kind as its file sets it: what it does, with what it carries.
    package enum Action: Sendable, Equatable {
        /// Answer late: fixed or a range.
        case latency(min: Duration, max: Duration)
        /// Answer with this status and body instead of handling the request.
        case error(status: Int, body: String)
        /// Close the connection without handling the request or answering.
        case close
        /// Handle the request, then, if it committed (2xx), close without answering: the response is lost.
        case dropAfterCommit
        /// Answer as a gateway that rate-limits, instead of handling the request: HTTP 429 with `Retry-After`,
        /// gRPC `RESOURCE_EXHAUSTED` with `grpc-retry-pushback-ms`, Connect `resource_exhausted`.
        case rateLimit(retryAfter: Duration)
        /// Cut the answer off after `afterBytes` bytes of its body (nil: half of it), as a failing proxy does: HTTP/1.1
        /// closes the connection, HTTP/2 resets the stream. `commit`: handle the request and cut its answer if it
        /// committed (2xx, gRPC OK; a refusal is answered whole, as for `dropAfterCommit`); else cut a 503 instead of
        /// handling it.
        case truncate(afterBytes: Int?, commit: Bool)

        /// Its kind.
        package var kind: FaultKind {
            switch self {
            case .latency: .latency
            case .error: .error
            case .close: .close
            case .dropAfterCommit: .dropAfterCommit
            case .rateLimit: .rateLimit
            case .truncate: .truncate
            }
        }
    }

    /// What the kind does, as the `kind` key's description says it (`latency: answer late`).
    var about: String {
        switch self {
        case .latency: "answer late"
        case .error: "answer with status and body instead of handling the request"
        case .close: "close the connection without handling the request"
        case .dropAfterCommit: "handle the request (it commits), then close without answering"
        case .rateLimit: "answer as a rate-limiting gateway (HTTP 429 with Retry-After, gRPC RESOURCE_EXHAUSTED with "
            + "grpc-retry-pushback-ms) without handling the request"
        case .truncate: "cut the answer off partway through its body, as a failing proxy does (HTTP/1.1: the connection closes; "
            + "HTTP/2: the stream is reset, no trailers)"
        }
    }

    /// What a fault of the kind takes besides `kind`, `when` and how often: each key's schema, and whether it is required
    /// there. The one home of a kind's keys: the loader refuses another kind's (``keyNames``), and the schema's block for
    /// the kind is made from them, so a new kind's keys edit no other kind's block.
    var keys: [(name: String, spec: KeySpec, required: Bool, about: String)] {
        switch self {
        case .latency: [("latency", .ref("latency"), true, #"a duration or {"min", "max"}"#)]
        case .error: [("status", .integer(400 ... 599), false, "the HTTP status, 400 to 599 (default 500)"),
                      ("body", .string(), false, "the response body (default empty)")]
        case .rateLimit: [("retry_after", .ref("duration"), false, "how long the app is told to wait before it sends the request again "
                           + "(default 1s, at most \(DurationText.format(Self.retryAfterLimit))): Retry-After in whole seconds, rounded up, "
                           + "grpc-retry-pushback-ms in milliseconds")]
        case .truncate: [("after_bytes", .integer(0 ... Self.truncateLimit), false, "how many bytes of the body are sent before the cut "
                          + "(0: the head alone; default half of the body; at most all but its last byte, so the answer is always cut)"),
                         ("commit", .boolean(), false, "true (default): the request is handled, and its answer cut if it committed "
                          + "(a 2xx, gRPC OK; a refusal is answered whole, as for drop_after_commit); false: not handled, and a 503 "
                          + "error's answer is cut instead (over gRPC, the head alone)")]
        case .close, .dropAfterCommit: []
        }
    }

    /// The names of ``keys``.
    var keyNames: [String] { keys.map(\.name) }

    /// A fault of the kind read from its keys (`fields`, the fault's object; `node`, the fault).
    func action(_ fields: [String: ScenarioNode], node: ScenarioNode) throws(ScenarioError) -> Action {
        switch self {
        case .latency:
            guard let latency = fields["latency"] else { throw node.fail("expected \"latency\" for kind latency") }
            switch try latency.delay() {
            case .fixed(let duration): return .latency(min: duration, max: duration)
            case .range(let min, let max): return .latency(min: min, max: max)
            case .businessDays: throw latency.fail("expected a duration or {\"min\",\"max\"}")
            }
        case .error:
            return .error(status: try fields["status"]?.integer(400 ... 599) ?? 500, body: try fields["body"]?.string() ?? "")
        case .close: return .close
        case .dropAfterCommit: return .dropAfterCommit
        case .rateLimit:
            let after = try fields["retry_after"]?.duration() ?? .seconds(1)
            guard after <= Self.retryAfterLimit else {
                throw fields["retry_after"]!.failShowingValue("expected a duration of at most \(DurationText.format(Self.retryAfterLimit))")
            }
            return .rateLimit(retryAfter: after)
        case .truncate:
            return .truncate(afterBytes: try fields["after_bytes"]?.integer(0 ... Self.truncateLimit), commit: try fields["commit"]?.bool() ?? true)
        }
    }

    /// What an explored rule of the kind adds (``ExploreSpace``).
    var exploredRule: [String: JSON] {
        switch self {
        case .dropAfterCommit, .close, .truncate: [:]  // a drawn truncate: committed, cut at half its body
        case .error: ["status": 503, "body": .string(ExploreSpace.errorBody)]
        case .latency: ["latency": ["min": "50ms", "max": "300ms"]]
        case .rateLimit: ["retry_after": "1s"]
        }
    }

    /// The largest `after_bytes` a `truncate` fault takes.
    static let truncateLimit = 100_000_000

    /// The longest wait a `rate_limit` fault may ask for (`retry_after`).
    static let retryAfterLimit: Duration = .seconds(3600)
}

extension InjectedFault {
    /// The fault of scenario fault `index`, of `kind`.
    package init(index: Int, kind: FaultKind, handled: Bool) {
        self.init(index: index, kindName: kind.rawValue, handled: handled)
    }

    /// Its kind. (Every fault injected is made by ``init(index:kind:handled:)``; a request log's record is read back
    /// through the same names.)
    package var kind: FaultKind { FaultKind(rawValue: kindName) ?? .error }
}

extension FaultKind {
    /// An answer a fault of the kind gave, as the places that tell of it see it.
    package struct Answer: Sendable {
        /// Its gRPC status's name when it has one, else its HTTP status (Connect's answers carry none: their HTTP status says it).
        package var status: String
        package var httpStatus: Int
        /// Whether the API had handled the request (``InjectedFault/handled``).
        package var handled: Bool
        /// The bytes of its body sent before a `truncate` cut it, of `bodyBytes`.
        var cutAfter: Int?
        var bodyBytes: Int
        /// The wait it asked for, as the client reads it (`, Retry-After 1s`), or "".
        var wait: String

        init(status: String, httpStatus: Int, handled: Bool, cutAfter: Int?, bodyBytes: Int, wait: String) {
            (self.status, self.httpStatus, self.handled, self.cutAfter, self.bodyBytes, self.wait)
                = (status, httpStatus, handled, cutAfter, bodyBytes, wait)
        }
    }

    /// On a timeline: `injected fault drop_after_commit: done, then its answer was lost`.
    package func timelineWords(_ answer: Answer) -> String {
        switch self {
        case .dropAfterCommit: "injected fault drop_after_commit: done, then its answer was lost"
        case .close: "injected fault close: the connection was closed unanswered"
        case .error: "injected fault error: answered \(answer.httpStatus)"
        case .rateLimit: "injected fault rate_limit: answered \(answer.status)"
        case .truncate:
            (answer.handled ? "injected fault truncate: done, then its answer (\(answer.status)) was"
                : "injected fault truncate: not done, a \(answer.httpStatus)")
                + " cut off after \(answer.cutAfter ?? 0) of its \(answer.bodyBytes) bytes"
        case .latency: "\(answer.status) after an injected latency"
        }
    }

    /// In a `wait_for_request`'s failure, after "was": `rate limited (429, Retry-After 1s)`.
    package func waitWords(_ answer: Answer) -> String {
        switch self {
        case .rateLimit: "rate limited (\(answer.status)\(answer.wait))"
        case .error: "answered \(answer.status) by an injected fault (error)"
        case .close: "closed unanswered by an injected fault (close)"
        case .truncate:
            "answered \(answer.status), cut off after \(answer.cutAfter ?? 0) of its \(answer.bodyBytes) bytes by an injected fault (truncate)"
        case .dropAfterCommit: "done, then its answer lost to an injected fault (drop_after_commit)"
        case .latency: "answered \(answer.status) after an injected latency"
        }
    }

    /// In the report's evidence: what the fault did to the answer; nil when the API answered (late).
    func evidenceWords(cutAfter: Int?) -> String? {
        switch self {
        case .close: "closed without an answer (fault close)"
        case .error: "an error instead of the API's answer (fault error)"
        case .rateLimit: "rate limited instead of the API's answer (fault rate_limit)"
        case .truncate: "cut off after \(cutAfter ?? 0) bytes of its body (fault truncate)"
        case .dropAfterCommit: Self.droppedAfterCommit
        case .latency: nil
        }
    }

    /// The evidence's words for a lost answer (a journal's from before faults were named says no kind).
    static let droppedAfterCommit = "dropped after commit (fault drop_after_commit)"
}

extension HTTPResponse {
    /// This answer, which `fault` gave, as the places that tell of it see it.
    package func faultAnswer(_ fault: InjectedFault) -> FaultKind.Answer {
        let wait = retryAfter.map { wait in
            grpcStatus == nil ? ", Retry-After \(DurationText.format(wait))"
                : ", grpc-retry-pushback-ms \(wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)"
        } ?? ""
        return FaultKind.Answer(status: grpcStatus.map(\.name) ?? String(status), httpStatus: status, handled: fault.handled,
                                cutAfter: cutAfter, bodyBytes: body.count, wait: wait)
    }
}
