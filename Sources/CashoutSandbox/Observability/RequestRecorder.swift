import SandboxBank
import SandboxContract
import SandboxWire

/// The middleware that fills the request log and logs each refused authentication
/// (`auth.refused`), outside every other, so that it sees each request as it came and each answer
/// as it left (a guard's, a fault's, a handler's, with their diagnosis).
///
/// What is logged, as WireMock journals the stubs' requests and not its own `/__admin` calls:
/// the payout APIs' requests, gRPC and Connect calls, and requests no route matched (404, 405);
/// not the admin API's (`/sandbox/...`: a dashboard polling every second would flood it; the
/// built-in sink's POSTs with them, since the sink keeps those), nor the dashboard's page and the
/// documents (`APIDocs.routes`).
struct RequestRecorder: Sendable {
    let requestLog: RequestLog
    let eventLog: EventLog?
    let clock: VirtualClock
    /// Each request recorded is the app's activity until answered.
    package let activity: AppActivity

    init(requestLog: RequestLog, eventLog: EventLog?, clock: VirtualClock, activity: AppActivity) {
        self.requestLog = requestLog
        self.activity = activity
        self.eventLog = eventLog
        self.clock = clock
    }

    func respond(_ request: HTTPRequest, _ context: RequestContext, _ next: HTTPHandler) -> HTTPResponse {
        guard context.route.isRecorded(request) else { return next(request) }
        let at = clock.now
        let receivedAt = VirtualClock.wallMilliseconds()
        let turn = activity.begin()
        let response = next(request)
        // An answer made at once (nearly all) is recorded in place: handing the request to `map`
        // as its context copies it, which cost a signed D24 status 1,700 instructions (callgrind).
        guard response.isDeferred else {
            record(request, response, context, at: at, receivedAt: receivedAt, turn: turn)
            return response
        }
        let pending = Pending(recorder: self, request: request, context: context, at: at, receivedAt: receivedAt, turn: turn)
        return response.map(pending) { pending, response in
            pending.recorder.record(pending.request, response, pending.context, at: pending.at, receivedAt: pending.receivedAt,
                                    turn: pending.turn)
            return response
        }
    }

    /// What recording an answer that comes later needs.
    private struct Pending: Sendable {
        let recorder: RequestRecorder
        let request: HTTPRequest
        let context: RequestContext
        let at: VirtualTime
        let receivedAt: Int64
        let turn: Int
    }

    private func record(_ request: HTTPRequest, _ response: HTTPResponse, _ context: RequestContext, at: VirtualTime, receivedAt: Int64,
                        turn: Int) {
        defer { activity.end() }
        requestLog.record(request, response, route: context.route.name, dialect: context.route.dialect, at: at, receivedAt: receivedAt,
                          turn: turn, answeredTurn: activity.turn, facts: context.facts)
        if let diagnosis = response.diagnosis, let eventLog {
            eventLog.authRefused(method: request.method, path: request.path, response: response, diagnosis)
        }
    }
}
