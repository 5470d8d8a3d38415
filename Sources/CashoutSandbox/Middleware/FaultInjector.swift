import Dispatch
import Glibc
import SandboxBank
import SandboxGRPC
import SandboxHTTP
import SandboxJSON
import SandboxScenario
import Synchronization

/// A scenario's HTTP faults around the sandbox's handler: late answers, errors instead of
/// answers, connections closed, and responses lost after the request was committed.
///
/// A fault's `when` is a verification's request pattern (`method`, `path`, `dialect`, `headers`,
/// `body`; `endpoint` for `METHOD /path`), tested against the request before it is handled, its
/// body read as a verification reads it (a gRPC or Connect message as proto3 JSON). One without
/// a `path` applies to no request to the sandbox's own `/sandbox/...` endpoints (so tests can
/// still look). `every: N` fires on the Nth, 2Nth... matching request (only the requests that
/// match count); `rate` draws from a generator seeded by the scenario's seed, so a sequence of
/// requests meets the same faults every run; `times: N` stops a fault after it fired N times.
final class FaultInjector: Sendable {
    private struct Armed {
        let fault: Fault
        var matched = 0
        var fired = 0
        var random: SplitMix64
    }

    private let armed: Mutex<[Armed]>
    /// Whether any fault is armed: the request path skips the lock when none is.
    private let active: Atomic<Bool>
    private let delays = DispatchQueue(label: "cashout-sandbox.latency", attributes: .concurrent)

    init(faults: [Fault], seed: UInt64) {
        armed = Mutex(Self.arm(faults, seed: seed))
        active = Atomic(!faults.isEmpty)
    }

    private static func arm(_ faults: [Fault], seed: UInt64) -> [Armed] {
        faults.enumerated().map { Armed(fault: $1, random: SplitMix64(seed: seed &+ UInt64($0) &* 0x9E37_79B9)) }
    }

    /// The router middleware, for routes numbered as `routeNames` (each payout API's route with
    /// its dialect in `dialects`), reading bodies as `journal` does: answers a request with its
    /// handler unless a fault fires.
    func middleware(routeNames: [String], dialects: [String: String], journal: RequestJournal) -> Router.Middleware {
        let routeDialects = routeNames.map { dialects[$0] }
        return { [self] request, route, handler in
            guard active.load(ordering: .acquiring) else { return handler(request) }
            let dialect = routeDialects.indices.contains(route) ? routeDialects[route] : nil
            guard let (kind, delay, index) = decide(request, dialect: dialect, body: {
                journal.bodyJSON(of: request, routed: route != Router.unmatched)
            })
            else { return handler(request) }
            return respond(request, kind: kind, delay: delay, index: index, next: handler)
        }
    }

    /// A latency fault's delay, and the queue that waits it out.
    private struct Latency: Sendable {
        let queue: DispatchQueue
        let milliseconds: Int64
    }

    /// What fault `index` (of `kind`) makes of the request; its answer, when it is the fault's, says so (`HTTPResponse.fault`).
    private func respond(_ request: HTTPRequest, kind: Fault.Kind, delay: Int64, index: Int, next handler: HTTPHandler) -> HTTPResponse {
        switch kind {
        case .latency:
            // The answer, once made, is given `delay` later: no thread waits meanwhile.
            return handler(request).map(Latency(queue: delays, milliseconds: delay)) { latency, produced in
                .deferred { answer in
                    latency.queue.asyncAfter(deadline: .now() + .milliseconds(Int(clamping: latency.milliseconds))) { answer(produced) }
                }
            }
        case .error(let status, let body):
            var response = HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
            response.fault = InjectedFault(index: index, handled: false)
            return response
        case .close:
            var response = HTTPResponse.closeWithoutAnswer
            response.fault = InjectedFault(index: index, handled: false)
            return response
        case .dropAfterCommit:
            // Only a request that committed (a 2xx, and for gRPC an OK status) can lose its
            // response after committing; a refusal, such as the 511 a retried create meets, is answered.
            return handler(request).map(index) { index, response in
                guard (200 ..< 300).contains(response.status) && (response.grpcStatus ?? .ok) == .ok else { return response }
                var lost = HTTPResponse.closeWithoutAnswer
                lost.fault = InjectedFault(index: index, handled: true)
                return lost
            }
        }
    }

    /// The fault that fires for this request, if any, and its delay in milliseconds. Every
    /// matching fault counts the request, whichever fires; the first that fires wins. The body is
    /// read once, and only when a pattern tests it.
    private func decide(_ request: HTTPRequest, dialect: String?, body readBody: () -> JSON?) -> (Fault.Kind, Int64, Int)? {
        let isAdmin = Router.path(request.path, isIn: AdminAPI.group)
        var body: JSON??
        func subject(_ pattern: RequestPattern) -> RequestPattern.Subject {
            if !pattern.body.isEmpty, body == nil { body = .some(readBody()) }
            return RequestPattern.Subject(method: request.method, path: String(request.path), dialect: dialect, headers: request.headers,
                                          body: body ?? nil, bodyCut: false)
        }
        return armed.withLock { armed -> (Fault.Kind, Int64, Int)? in
            var chosen: (Fault.Kind, Int64, Int)?
            for index in armed.indices {
                let fault = armed[index].fault
                if let pattern = fault.request {
                    guard pattern.path != nil || !isAdmin, pattern.differences(subject(pattern)).isEmpty else { continue }
                } else if isAdmin {
                    continue
                }
                armed[index].matched += 1
                let fires: Bool
                if let every = fault.every {
                    fires = armed[index].matched % every == 0
                } else {
                    fires = Double(armed[index].random.next() >> 11) / Double(1 << 53) < (fault.rate ?? 0)
                }
                guard fires, chosen == nil, fault.times.map({ armed[index].fired < $0 }) ?? true else { continue }
                armed[index].fired += 1
                var delay: Int64 = 0
                if case .latency(let min, let max) = fault.kind {
                    delay = armed[index].random.next(in: min.wholeMilliseconds ... max.wholeMilliseconds)
                }
                chosen = (fault.kind, delay, index)
            }
            return chosen
        }
    }

    /// Replaces the faults (a scenario loaded at run time, or a reset); counters start again.
    func replace(_ faults: [Fault], seed: UInt64) {
        let fresh = Self.arm(faults, seed: seed)
        armed.withLock { $0 = fresh }
        active.store(!faults.isEmpty, ordering: .releasing)
    }
}
