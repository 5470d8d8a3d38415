package import SandboxBank
import SandboxContract
package import SandboxWire

/// The middleware that fills the request log and logs each refused authentication
/// (`auth.refused`), outside every other, so that it sees each request as it came and each answer
/// as it left (a guard's, a fault's, a handler's, with their diagnosis).
///
/// What is logged, as WireMock journals the stubs' requests and not its own `/__admin` calls:
/// the payout APIs' requests, gRPC and Connect calls, and requests no route matched (404, 405);
/// not the admin API's (`/sandbox/...`: a dashboard polling every second would flood it; the
/// built-in sink's POSTs with them, since the sink keeps those), nor the dashboard's page and the
/// documents (`APIDocs.routes`).
package struct RequestRecorder: Sendable {
    private struct Route: Sendable {
        let name: String?
        let dialect: String?
        let recorded: Bool
    }

    package let requestLog: RequestLog
    package let eventLog: EventLog?
    package let clock: VirtualClock
    /// Each request recorded is the app's activity until answered.
    package let activity: AppActivity
    /// By route number (``Router/routeNames``).
    private let routes: [Route]

    /// `dialects`: the API of each route name; `unrecorded`: the routes (GET ones: their HEAD twins too) left out.
    package init(requestLog: RequestLog, eventLog: EventLog?, clock: VirtualClock, routeNames: [String], dialects: [String: String],
         unrecorded: [String], activity: AppActivity) {
        self.requestLog = requestLog
        self.activity = activity
        self.eventLog = eventLog
        self.clock = clock
        let left = Set(unrecorded + unrecorded.filter { $0.hasPrefix("GET ") }.map { "HEAD " + $0.dropFirst(4) })
        routes = routeNames.enumerated().map { number, name in
            guard number != Router.unmatched else { return Route(name: nil, dialect: nil, recorded: true) }
            return Route(name: name, dialect: dialects[name],
                         recorded: !left.contains(name) && !Router.path(Router.pattern(of: name), isIn: adminRouteGroup))
        }
    }

    package func respond(_ request: HTTPRequest, _ number: Int, _ next: HTTPHandler) -> HTTPResponse {
        let route = routes.indices.contains(number) ? routes[number] : routes[Router.unmatched]
        // A matched route's group is known from its pattern; only an unmatched path is looked at.
        guard route.recorded, number != Router.unmatched || !Router.path(request.path, isIn: adminRouteGroup) else { return next(request) }
        let at = clock.now
        let receivedAt = VirtualClock.wallMilliseconds()
        let turn = activity.begin()
        let response = next(request)
        // An answer made at once (nearly all) is recorded in place: handing the request to `map`
        // as its context copies it, which cost a signed D24 status 1,700 instructions (callgrind).
        guard response.isDeferred else {
            record(request, response, route: route, at: at, receivedAt: receivedAt, turn: turn)
            return response
        }
        let pending = Pending(recorder: self, request: request, route: route, at: at, receivedAt: receivedAt, turn: turn)
        return response.map(pending) { pending, response in
            pending.recorder.record(pending.request, response, route: pending.route, at: pending.at, receivedAt: pending.receivedAt,
                                    turn: pending.turn)
            return response
        }
    }

    /// What recording an answer that comes later needs.
    private struct Pending: Sendable {
        let recorder: RequestRecorder
        let request: HTTPRequest
        let route: Route
        let at: VirtualTime
        let receivedAt: Int64
        let turn: Int
    }

    private func record(_ request: HTTPRequest, _ response: HTTPResponse, route: Route, at: VirtualTime, receivedAt: Int64, turn: Int) {
        defer { activity.end() }
        requestLog.record(request, response, route: route.name, dialect: route.dialect, at: at, receivedAt: receivedAt, turn: turn,
                          answeredTurn: activity.turn)
        if let diagnosis = response.diagnosis, let eventLog {
            eventLog.authRefused(method: request.method, path: request.path, response: response, diagnosis)
        }
    }
}
