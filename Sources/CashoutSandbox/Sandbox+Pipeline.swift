import SandboxContract
import SandboxBank
import SandboxWire
import SandboxSupport
import SandboxPersistence

// What every request goes through on its way to its route's handler, in one list, outermost
// first: the first stage sees the request as it came and the answer as it leaves, the last one
// is next to the handler. `Sandbox.launch` adds every route first, then these stages.

extension Sandbox {
    /// What the stages work with.
    struct PipelineParts {
        let configuration: Configuration
        let requests: RequestLog
        let clock: VirtualClock
        let grpc: GRPCServer
        let sender: WebhookSender
        let journal: StateJournal?
        let faults: FaultInjector
        let activity: AppActivity
    }

    /// One stage: a struct, not a bare closure in an array, so that the closure is kept and
    /// called as it is (a closure stored as an array's element is called through a thunk that
    /// converts its arguments, on every request).
    struct Stage {
        let run: RequestStage

        init(_ run: @escaping RequestStage) {
            self.run = run
        }
    }

    /// The stages as the router's one middleware, outermost first: each request's context made once, from its route's.
    static func middleware(_ stages: [Stage], routes: [RouteContext], faults: FaultInjector) -> Router.Middleware {
        // Composed once, innermost last: each stage gets the context the first made.
        let chain = stages.reversed().reduce(Stage { request, _, next in next(request) }) { inner, stage in
            Stage { request, context, next in stage.run(request, context) { inner.run($0, context, next) } }
        }
        return { request, number, next in
            let route = routes.indices.contains(number) ? routes[number] : routes[Router.unmatched]
            return chain.run(request, RequestContext(route: route, faultsArmed: faults.isArmed), next)
        }
    }

    /// The admin routes that run the bank's events or send webhooks.
    static let sendsWebhooks = Set([AdminRoute.advanceClock, AdminRoute.redeliverWebhook, AdminRoute.sendWebhookChaos].map(\.route))

    /// The sandbox's middleware, outermost first; a stage the configuration turns off is left out.
    static func pipeline(_ parts: PipelineParts) -> [Stage] {
        let configuration = parts.configuration
        let grpc = parts.grpc
        let stages: [Stage?] = [
            // The request log and the log of refused authentication: each request as it came,
            // each answer as it left, whatever answered it (a guard, a fault, a handler).
            configuration.requestJournalCapacity > 0 || configuration.eventLog != nil
                ? Stage(RequestRecorder(requestLog: parts.requests, eventLog: configuration.eventLog, clock: parts.clock,
                                        activity: parts.activity).respond)
                : nil,
            // A request to a name that is not this machine's is refused before anything is done
            // with it, when only this machine can connect (against DNS rebinding).
            listensOnLoopbackOnly(configuration.server) ? Stage(HostGuard(allowed: configuration.allowedHosts).check) : nil,
            // A gRPC call that no route took: UNIMPLEMENTED.
            Stage { request, context, next in (context.route.name == nil ? grpc.unimplemented(request) : nil) ?? next(request) },
            // The pages that hand out the sandbox's URL (dashboard, Postman, OpenAPI) teach the
            // webhook sender the names it is reached by, so notifications to its sink under those
            // names stay in process.
            Stage(learnsHosts(sender: parts.sender)),
            // A change is on disk before the answer that reports it leaves.
            parts.journal.map { Stage(durable($0)) },
            // The admin API: cross-site writes refused, then the admin token.
            Stage(adminGuards(token: configuration.adminToken)),
            // The scenarios' HTTP faults, on the handlers' answers.
            Stage(parts.faults.middleware(requestLog: parts.requests)),
        ]
        return stages.compactMap { $0 }
    }

    private static func learnsHosts(sender: WebhookSender) -> RequestStage {
        { request, context, next in
            if context.route.handsOutURLs, let host = request.headers["Host"] { sender.learn(host: host) }
            return next(request)
        }
    }

    /// A read waits for the journal only when it changed something itself (a link page opened:
    /// a GET that links). While the journal cannot write, every request is a read unless it
    /// changes something: then it waits, and is refused with a 503 in its API's format once what
    /// it changed is undone (Running it, "When the disk fails"). A status query still answers.
    private static func durable(_ journal: StateJournal) -> RequestStage {
        { request, context, next in
            let refusedAs = context.route.isGRPCMethod ? grpcRefusal(grpc: GRPCServer.isGRPC(request)) : httpRefusal
            let before = journal.journal.counts.appended
            let reads = request.method == "GET" || request.method == "HEAD"
            // While the journal cannot write, a read answers from memory, whatever others journal meanwhile.
            if reads && journal.journal.failure != nil { return next(request) }
            guard !reads, let error = journal.refusal() else {
                return journal.afterSync(next(request), since: before, readsWait: !reads, refusedAs: refusedAs)
            }
            // What runs events or sends webhooks is refused before it runs: its webhooks would tell
            // an app of changes then undone. Anything else runs, as a read unless it changes something.
            if context.route.sendsWebhooks { return httpRefusal(error) }
            return journal.afterSync(next(request), since: before, readsWait: false, refusedAs: refusedAs)
        }
    }

    /// A change refused for the journal, as the HTTP APIs answer it: 503 with the sandbox's error
    /// body and `Retry-After`.
    private static let httpRefusal: @Sendable (SaveRefusal) -> HTTPResponse = { refusal in
        var response = Router.error(503, refusal.message)
        response.headers["Retry-After"] = String(SaveRefusal.retryAfterSeconds)
        return response
    }

    /// A change refused for the journal, as a gRPC call (trailers only) or a Connect call is
    /// answered: UNAVAILABLE, which clients retry, with the refusal's message.
    private static func grpcRefusal(grpc: Bool) -> @Sendable (SaveRefusal) -> HTTPResponse {
        { refusal in
            let status = GRPCStatus(.unavailable, refusal.message)
            return grpc ? GRPCServer.trailersOnly(status) : GRPCServer.connectError(status)
        }
    }

    private static func adminGuards(token: String?) -> RequestStage {
        let auth = AdminAuth(token: token)
        return { request, context, next in
            guard context.route.isAdmin(request) else { return next(request) }
            return CrossSiteGuard.check(request, context) { request in auth?.check(request, context, next: next) ?? next(request) }
        }
    }
}
