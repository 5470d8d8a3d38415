import SandboxContract
import SandboxWire

/// Refuses admin changes a web page on another site asks a browser to make: any website can post
/// a form to `http://localhost:8080/sandbox/reset`, and the browser sends it. Browsers name the
/// page's site in `Origin` (and `Sec-Fetch-Site`); curl, Postman and test code send neither, and
/// the dashboard, served by the sandbox itself, sends its own. So a `/sandbox/...` request other
/// than GET or HEAD whose `Origin` is not the `Host` it was sent to is refused with 403.
/// Notifications to the sink (`POST /sandbox/sink/{name}`) come from anywhere and pass.
enum CrossSiteGuard {
    /// Whether the route named `route` is open to any site (the sink's).
    static func isOpen(_ route: String) -> Bool {
        route == AdminRoute.postToSink.route
    }

    package static func check(_ request: HTTPRequest, _ context: RequestContext, next: HTTPHandler) -> HTTPResponse {
        guard request.method != "GET", request.method != "HEAD", !context.route.crossSiteOpen else {
            return next(request)
        }
        let site = request.headers["Sec-Fetch-Site"]
        if let origin = request.headers["Origin"], Self.host(ofOrigin: origin) != request.headers["Host"]?.lowercased() {
            return Router.error(403, "cross-site request refused: Origin \(origin) is not this sandbox (\(request.headers["Host"] ?? "no Host"))")
        }
        if site == "cross-site" {
            return Router.error(403, "cross-site request refused: Sec-Fetch-Site is cross-site")
        }
        return next(request)
    }

    /// `host:port` of an origin such as `http://localhost:8080`; nil for `null` or anything else.
    static func host(ofOrigin origin: String) -> String? {
        guard let scheme = origin.firstRange(of: "://") else { return nil }
        let host = origin[scheme.upperBound...]
        return host.isEmpty || host.contains("/") ? nil : host.lowercased()
    }
}
