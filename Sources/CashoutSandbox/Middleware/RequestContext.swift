package import SandboxContract
import SandboxWire

/// What every stage of the pipeline knows of a request's route (`Sandbox+Pipeline.swift`), read once for every route when
/// the sandbox starts, as Hummingbird hands its middleware `context.endpointPath` and grpc-swift its interceptors the
/// method's descriptor: no stage keeps a table of its own by route number.
package final class RouteContext: Sendable {
    /// `"POST /v3/cashout"`, as the router names it; nil when no route matched.
    package let name: String?
    /// The payout API whose operation it is (`d24`); nil for the sandbox's own routes.
    let dialect: String?
    /// Its operation, of that API.
    let operation: APIOperation?
    /// Whether it has one (read without copying it, on every request).
    let hasOperation: Bool
    /// A gRPC method's route, which Connect calls too (`POST /types.PayoutService/Create`).
    let isGRPCMethod: Bool
    /// An admin route (under `/sandbox`); nil when no route matched: its path says.
    private let admin: Bool?
    /// A page that hands out the sandbox's URL (dashboard, Postman, OpenAPI).
    let handsOutURLs: Bool
    /// Kept in the request log (the payout APIs' routes, and every unmatched request outside `/sandbox`).
    private let recordedRoute: Bool
    /// An admin route that runs the bank's events or sends webhooks.
    let sendsWebhooks: Bool
    /// The admin routes open to any site (the sink) and without the admin token (health, the sink).
    let crossSiteOpen: Bool, tokenOpen: Bool

    /// Every route of `routeNames`, by number (`Router.routeNames`: 0 is `unmatched`). `documents`: the pages that hand out
    /// the sandbox's URL (`APIDocs.routes`), which the request log leaves out with their HEAD twins.
    static func table(routeNames: [String], dialects: [String: any Dialect], routeDialects: [String: String], grpcRoutes: Set<String>,
                              documents: [String], sendsWebhooks: Set<String>) -> [RouteContext] {
        let pages = Set(documents)
        let left = pages.union(documents.compactMap(Router.headTwin))
        return routeNames.enumerated().map { number, name in
            guard number != Router.unmatched else { return RouteContext(unmatched: ()) }
            let dialect = routeDialects[name]
            let admin = Router.path(Router.pattern(of: name), isIn: AdminAPI.group)
            return RouteContext(name: name, dialect: dialect, operation: dialect.flatMap { dialects[$0]?.operation(route: name) },
                                isGRPCMethod: grpcRoutes.contains(name), admin: admin, handsOutURLs: pages.contains(name),
                                recordedRoute: !left.contains(name) && !admin, sendsWebhooks: sendsWebhooks.contains(name),
                                crossSiteOpen: CrossSiteGuard.isOpen(name), tokenOpen: AdminAuth.openRoutes.contains(name))
        }
    }

    private init(name: String?, dialect: String?, operation: APIOperation?, isGRPCMethod: Bool, admin: Bool?, handsOutURLs: Bool,
                 recordedRoute: Bool, sendsWebhooks: Bool, crossSiteOpen: Bool, tokenOpen: Bool) {
        (self.name, self.dialect, self.operation, self.isGRPCMethod, self.admin) = (name, dialect, operation, isGRPCMethod, admin)
        hasOperation = operation != nil
        (self.handsOutURLs, self.recordedRoute, self.sendsWebhooks) = (handsOutURLs, recordedRoute, sendsWebhooks)
        (self.crossSiteOpen, self.tokenOpen) = (crossSiteOpen, tokenOpen)
    }

    /// The context of a request no route took.
    private convenience init(unmatched: Void) {
        self.init(name: nil, dialect: nil, operation: nil, isGRPCMethod: false, admin: nil, handsOutURLs: false, recordedRoute: true,
                  sendsWebhooks: false, crossSiteOpen: false, tokenOpen: false)
    }

    /// Whether `request`, of this route, is an admin request (a `/sandbox/...` path, routed or not: a guard of the admin
    /// API answers before a 404 does).
    func isAdmin(_ request: HTTPRequest) -> Bool {
        admin ?? Router.path(request.path, isIn: AdminAPI.group)
    }

    /// Whether `request`, of this route, is kept in the request log.
    func isRecorded(_ request: HTTPRequest) -> Bool {
        recordedRoute && (name != nil || !Router.path(request.path, isIn: AdminAPI.group))
    }
}

/// One stage of the pipeline: the request, its context, and what answers it next (the next stage, or its route's handler).
typealias RequestStage = @Sendable (HTTPRequest, RequestContext, _ next: HTTPHandler) -> HTTPResponse

/// A request's context as each stage of the pipeline receives it: its route's (``RouteContext``), and, for a payout API's
/// operation while a scenario's faults are armed, its facts, made by a fault's look and kept with its log entry for every
/// later reader (``KeptFacts``; nil otherwise: the log entry makes them for its first reader).
package struct RequestContext: Sendable {
    package let route: RouteContext
    package let facts: KeptFacts?

    /// `faultsArmed`: whether a fault may look at the request before it is handled.
    init(route: RouteContext, faultsArmed: Bool) {
        self.route = route
        facts = faultsArmed && route.hasOperation ? KeptFacts() : nil
    }
}
