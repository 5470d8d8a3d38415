import Dispatch
import Glibc
import SandboxContract
import SandboxBank
import SandboxWire
import SandboxSupport
import Synchronization

/// A scenario's HTTP faults around the sandbox's handler: late answers, errors instead of
/// answers, connections closed, responses lost after the request was committed, and answers cut
/// off partway through their body.
///
/// A fault's `when` is a verification's request pattern (`method`, `path`, `dialect`, `headers`,
/// `body`; `endpoint` for `METHOD /path`), tested against the request before it is handled, its
/// body read as a verification reads it (a gRPC or Connect message as proto3 JSON), and what the
/// request is about (`account`, `payout`: ``RequestSubject``). One without a `path` applies to the
/// payout APIs' operations only (a route of a dialect's): never to the sandbox's own `/sandbox/...`
/// endpoints, the dashboard or the documents, so tests and people can still look. `every: N`
/// fires on the Nth, 2Nth... matching request (only the requests that match count); `rate` draws
/// from the scenario's seed and what the request is about, with its occurrence among the
/// requests about the same (the 3rd status query of the same payout), never from the order
/// requests arrive in: an app that sends from several threads meets the same faults every run;
/// `times: N` stops a fault after it fired N times.
final class FaultInjector: Sendable {
    private struct Armed {
        let fault: Fault
        var matched = 0
        var fired = 0
        /// The requests it matched, by what they are about (`RequestSubject.identity`).
        var occurrences: [String: Int] = [:]
    }

    private let armed: Mutex<(faults: [Armed], seed: UInt64)>
    /// Whether any fault is armed: the request path skips the lock when none is.
    private let active: Atomic<Bool>
    private let delays = DispatchQueue(label: "cashout-sandbox.latency", attributes: .concurrent)
    /// What a request is about, for a draw and for `account` and `payout`.
    private let describe: RequestSubject.Describe

    init(faults: [Fault], seed: UInt64, describe: @escaping RequestSubject.Describe) {
        armed = Mutex((faults.map { Armed(fault: $0) }, seed))
        active = Atomic(!faults.isEmpty)
        self.describe = describe
    }

    /// Whether any fault is armed (a request's facts are made in its context for it then).
    var isArmed: Bool { active.load(ordering: .acquiring) }

    /// The pipeline's stage, reading bodies as `requestLog` does: answers a request with its handler unless a fault fires.
    func middleware(requestLog: RequestLog) -> RequestStage {
        { [self] request, context, handler in
            guard active.load(ordering: .acquiring) else { return handler(request) }
            let route = context.route
            guard let (action, delay, index) = decide(request, context, body: {
                requestLog.bodyJSON(of: request, routed: route.name != nil)
            })
            else { return handler(request) }
            let wire: Wire = !route.isGRPCMethod ? .http : GRPCServer.isGRPC(request) ? .grpc : .connect
            return respond(request, wire: wire, action: action, delay: delay, index: index, next: handler)
        }
    }

    /// How the request came, which decides how a fault's own answer is written: a gRPC client gets
    /// a status in trailers, a Connect client Connect's error (`{"code", "message"}`), any other
    /// the HTTP status (PayoutService guide, "What a client sees of each fault").
    private enum Wire {
        case http, grpc, connect
    }

    /// A latency fault's delay, and the queue that waits it out.
    private struct Latency: Sendable {
        let queue: DispatchQueue
        let milliseconds: Int64
    }

    /// What fault `index` (its `action`) makes of the request; its answer, when it is the fault's, says so (`HTTPResponse.fault`).
    private func respond(_ request: HTTPRequest, wire: Wire, action: FaultKind.Action, delay: Int64, index: Int,
                         next handler: HTTPHandler) -> HTTPResponse {
        switch action {
        case .latency:
            // The answer, once made, is given `delay` later: no thread waits meanwhile.
            return handler(request).map(Latency(queue: delays, milliseconds: delay)) { latency, produced in
                .deferred { answer in
                    latency.queue.asyncAfter(deadline: .now() + .milliseconds(Int(clamping: latency.milliseconds))) { answer(produced) }
                }
            }
        case .error(let status, let body):
            // A gRPC call is answered as a gRPC server behind a failing proxy would be: the status
            // its client maps the HTTP one to, with the body's message, in trailers; a Connect call
            // that code as Connect's error, with the scripted HTTP status.
            let grpcStatus = GRPCStatus(httpStatus: status, Self.message(of: body, status: status))
            var response = switch wire {
            case .grpc: GRPCServer.trailersOnly(grpcStatus)
            case .connect: HTTPResponse(status: status, headers: ["Content-Type": "application/json"],
                                        body: GRPCServer.connectError(grpcStatus).body)
            case .http: HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
            }
            response.fault = InjectedFault(index: index, kind: .error, handled: false)
            return response
        case .rateLimit(let after):
            var response = Self.rateLimited(wire, retryAfter: after)
            response.fault = InjectedFault(index: index, kind: .rateLimit, handled: false)
            return response
        case .close:
            var response = HTTPResponse.closeWithoutAnswer
            response.fault = InjectedFault(index: index, kind: .close, handled: false)
            return response
        case .dropAfterCommit:
            // Only a request that committed (a 2xx, and for gRPC an OK status) can lose its
            // response after committing; a refusal, such as the 511 a retried create meets, is answered.
            return handler(request).map(index) { index, response in
                guard Self.committed(response) else { return response }
                return HTTPResponse.lost(response, fault: InjectedFault(index: index, kind: .dropAfterCommit, handled: true))
            }
        case .truncate(let after, commit: false):
            // Not handled: what a proxy cuts is an error's answer (a gRPC error has no message, so its head alone).
            let response = switch wire {
            case .grpc: HTTPResponse(status: 200, headers: ["content-type": "application/grpc"], trailers: [:])
            case .connect: GRPCServer.connectError(GRPCStatus(.unavailable, "service unavailable"))
            case .http: HTTPResponse.json(["message": "service unavailable"], status: 503)
            }
            return Self.cut(response, after: after, fault: InjectedFault(index: index, kind: .truncate, handled: false))
        case .truncate(let after, commit: true):
            // As for drop_after_commit, the answer of a request that committed is what is cut; a refusal is answered whole.
            return handler(request).map(InjectedFault(index: index, kind: .truncate, handled: true)) { fault, response in
                Self.committed(response) ? Self.cut(response, after: after, fault: fault) : response
            }
        }
    }

    /// Whether the handler's answer says the request committed: a 2xx, and for gRPC an OK status.
    private static func committed(_ response: HTTPResponse) -> Bool {
        (200 ..< 300).contains(response.status) && (response.grpcStatus ?? .ok) == .ok
    }

    /// `response` cut off after `after` bytes of its body (nil: half of it), and never after its last byte, so that
    /// the client always sees it broken (0 for an empty body: its head alone, then the end of the connection or stream).
    private static func cut(_ response: HTTPResponse, after: Int?, fault: InjectedFault) -> HTTPResponse {
        let count = response.body.count
        var cut = response.cutOff(after: min(after ?? count / 2, max(count - 1, 0)))
        cut.fault = fault
        return cut
    }

    /// A rate-limiting gateway's answer, not the API's: HTTP 429 with `Retry-After` (whole seconds, rounded up), gRPC
    /// `RESOURCE_EXHAUSTED` with `grpc-retry-pushback-ms` (gRPC's retry design, A6), Connect `resource_exhausted` (429).
    private static func rateLimited(_ wire: Wire, retryAfter: Duration) -> HTTPResponse {
        let milliseconds = retryAfter.wholeMilliseconds
        let seconds = String((milliseconds + 999) / 1000)
        let message = "rate limited: retry after \(DurationText.format(retryAfter))"
        switch wire {
        case .grpc:
            return GRPCServer.trailersOnly(GRPCStatus(.resourceExhausted, message), metadata: ["grpc-retry-pushback-ms": String(milliseconds)])
        case .connect:
            var response = GRPCServer.connectError(GRPCStatus(.resourceExhausted, message))
            response.headers.add("Retry-After", seconds)
            return response
        case .http:
            var response = HTTPResponse.json(["message": .string(message)], status: 429)
            response.headers.add("Retry-After", seconds)
            return response
        }
    }

    /// An error fault's body as a gRPC message: its JSON `message`, else the body, else `HTTP 503`.
    private static func message(of body: String, status: Int) -> String {
        if let message = (try? JSON.parse(Array(body.utf8)))?["message"]?.stringValue { return message }
        return body.isEmpty ? "HTTP \(status)" : body
    }

    /// The fault that fires for this request, if any, and its delay in milliseconds. Every
    /// matching fault counts the request, whichever fires; the first that fires wins. The body is
    /// read once, and only when a pattern tests it; what the request is about, once, and only when
    /// a fault draws or tests it.
    private func decide(_ request: HTTPRequest, _ context: RequestContext, body readBody: () -> JSON?) -> (FaultKind.Action, Int64, Int)? {
        let (route, dialect) = (context.route.name, context.route.dialect)
        let isOperation = dialect != nil
        var body: JSON??
        func readOnce() -> JSON? {
            if body == nil { body = .some(readBody()) }
            return body ?? nil
        }
        func subject(_ pattern: RequestPattern) -> RequestPattern.Subject {
            RequestPattern.Subject(method: request.method, path: String(request.path), dialect: dialect, headers: request.headers,
                                   body: pattern.body.isEmpty ? nil : readOnce(), bodyCut: false)
        }
        var about: RequestSubject?
        func aboutOnce() -> RequestSubject {
            if let about { return about }
            let described = describe(request, route, context.route.operation.flatMap { operation in dialect.map { ($0, operation) } }, readOnce(),
                                     context.facts)
            about = described
            return described
        }
        return armed.withLock { armed -> (FaultKind.Action, Int64, Int)? in
            var chosen: (FaultKind.Action, Int64, Int)?
            for index in armed.faults.indices {
                let fault = armed.faults[index].fault
                guard Self.takes(fault, isOperation: isOperation, subject, aboutOnce) else { continue }
                armed.faults[index].matched += 1
                var random: SplitMix64?
                let fires: Bool
                if let every = fault.every {
                    fires = armed.faults[index].matched % every == 0
                } else {
                    let identity = aboutOnce().identity
                    armed.faults[index].occurrences[identity, default: 0] += 1
                    var draw = SplitMix64(seed: armed.seed ^ StableHash.of(String(index), identity,
                                                                             String(armed.faults[index].occurrences[identity]!)))
                    fires = Double(draw.next() >> 11) / Double(1 << 53) < (fault.rate ?? 0)
                    random = draw
                }
                guard fires, chosen == nil, fault.times.map({ armed.faults[index].fired < $0 }) ?? true else { continue }
                armed.faults[index].fired += 1
                var delay: Int64 = 0
                if case .latency(let min, let max) = fault.action {
                    var draw = random ?? SplitMix64(seed: armed.seed ^ StableHash.of(String(index), String(armed.faults[index].matched)))
                    delay = draw.next(in: min.wholeMilliseconds ... max.wholeMilliseconds)
                }
                chosen = (fault.action, delay, index)
            }
            return chosen
        }
    }

    /// Whether `fault`'s `when` takes a request: its pattern (no path: a payout API's operation
    /// alone, `isOperation`), the account and the payout it is about.
    package static func takes(_ fault: Fault, isOperation: Bool, _ subject: (RequestPattern) -> RequestPattern.Subject,
                      _ about: () -> RequestSubject) -> Bool {
        if let pattern = fault.request {
            guard pattern.path != nil || isOperation, pattern.differences(subject(pattern)).isEmpty else { return false }
        } else if !isOperation {
            return false
        }
        if let account = fault.account, !account.matches(about().account) { return false }
        return fault.payout.isEmpty || (about().payout.map { RequestSubject.matches(fault.payout, $0) } ?? false)
    }

    /// Replaces the faults (a scenario loaded at run time, or a reset); counters start again.
    func replace(_ faults: [Fault], seed: UInt64) {
        armed.withLock { $0 = (faults.map { Armed(fault: $0) }, seed) }
        active.store(!faults.isEmpty, ordering: .releasing)
    }
}
