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
        /// Every route's name, by number (`Router.routeNames`, once every route is added).
        let routeNames: [String]
        /// The dialect of each payout API's route, by number.
        let routeDialects: [String: String]
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
        let middleware: Router.Middleware

        init(_ middleware: @escaping Router.Middleware) {
            self.middleware = middleware
        }
    }

    /// The sandbox's middleware, outermost first; a stage the configuration turns off is left out.
    static func pipeline(_ parts: PipelineParts) -> [Stage] {
        let configuration = parts.configuration
        // The routes of gRPC methods, which Connect calls too: "POST /types.PayoutService/Create".
        let grpcRoutes = Set(parts.grpc.methodPaths.map { "POST \($0)" })
        let stages: [Stage?] = [
            // The request log and the log of refused authentication: each request as it came,
            // each answer as it left, whatever answered it (a guard, a fault, a handler).
            configuration.requestJournalCapacity > 0 || configuration.eventLog != nil
                ? Stage(RequestRecorder(requestLog: parts.requests, eventLog: configuration.eventLog, clock: parts.clock,
                                        routeNames: parts.routeNames,
                                        dialects: parts.routeDialects, unrecorded: APIDocs.routes,
                                        activity: parts.activity).respond)
                : nil,
            // A request to a name that is not this machine's is refused before anything is done
            // with it, when only this machine can connect (against DNS rebinding).
            listensOnLoopbackOnly(configuration.server) ? Stage(HostGuard(allowed: configuration.allowedHosts).check) : nil,
            // A gRPC call that no route took: UNIMPLEMENTED.
            Stage(parts.grpc.unknownCalls),
            // The pages that hand out the sandbox's URL (dashboard, Postman, OpenAPI) teach the
            // webhook sender the names it is reached by, so notifications to its sink under those
            // names stay in process.
            Stage(learnsHosts(routeNames: parts.routeNames, sender: parts.sender)),
            // A change is on disk before the answer that reports it leaves.
            parts.journal.map { Stage(durable($0, grpcRoutes: grpcRoutes, routeNames: parts.routeNames)) },
            // The admin API: cross-site writes refused, then the admin token.
            Stage(adminGuards(routeNames: parts.routeNames, token: configuration.adminToken)),
            // The scenarios' HTTP faults, on the handlers' answers.
            Stage(parts.faults.middleware(routeNames: parts.routeNames, dialects: parts.routeDialects, grpcRoutes: grpcRoutes,
                                          requestLog: parts.requests)),
        ]
        return stages.compactMap { $0 }
    }

    private static func learnsHosts(routeNames: [String], sender: WebhookSender) -> Router.Middleware {
        let handsOutURLs = routeNames.map { APIDocs.routes.contains($0) }
        return { request, route, next in
            if handsOutURLs[route], let host = request.headers["Host"] { sender.learn(host: host) }
            return next(request)
        }
    }

    /// A read waits for the journal only when it changed something itself (a link page opened:
    /// a GET that links). While the journal cannot write, every request is a read unless it
    /// changes something: then it waits, and is refused with a 503 in its API's format once what
    /// it changed is undone (Running it, "When the disk fails"). A status query still answers.
    private static func durable(_ journal: StateJournal, grpcRoutes: Set<String>, routeNames: [String]) -> Router.Middleware {
        let calls = routeNames.map { grpcRoutes.contains($0) }
        let sends = routeNames.map { sendsWebhooks.contains($0) }
        return { request, route, next in
            let refusedAs = calls[route] ? grpcRefusal(grpc: GRPCServer.isGRPC(request)) : httpRefusal
            let before = journal.journal.counts.appended
            let reads = request.method == "GET" || request.method == "HEAD"
            // While the journal cannot write, a read answers from memory, whatever others journal meanwhile.
            if reads && journal.journal.failure != nil { return next(request) }
            guard !reads, let error = journal.refusal() else {
                return journal.afterSync(next(request), since: before, readsWait: !reads, refusedAs: refusedAs)
            }
            // What runs events or sends webhooks is refused before it runs: its webhooks would tell
            // an app of changes then undone. Anything else runs, as a read unless it changes something.
            if sends[route] { return httpRefusal(error) }
            return journal.afterSync(next(request), since: before, readsWait: false, refusedAs: refusedAs)
        }
    }

    /// The admin routes that run the bank's events or send webhooks.
    private static let sendsWebhooks = Set([AdminRoute.advanceClock, AdminRoute.redeliverWebhook, AdminRoute.sendWebhookChaos].map(\.route))

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

    private static func adminGuards(routeNames: [String], token: String?) -> Router.Middleware {
        let crossSite = CrossSiteGuard(routes: routeNames)
        let auth = AdminAuth(token: token, routes: routeNames)
        return Router.group(AdminAPI.group, routeNames: routeNames) { request, route, next in
            crossSite.check(request, route: route) { request in auth?.check(request, route: route, next: next) ?? next(request) }
        }
    }
}
