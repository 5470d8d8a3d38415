import SandboxContract
import SandboxSupport
import SandboxWire

/// The admin token check (`serve --admin-token`): every `/sandbox/...` request needs
/// `Authorization: Bearer TOKEN` (RFC 6750 §2.1), else 401 with `WWW-Authenticate` (§3).
///
/// Two routes stay open, because what calls them cannot hold the token: `GET /sandbox/health`
/// (liveness probes) and `POST /sandbox/sink/{name}` (the webhook receiver: notifications come
/// from outside). The D24 API (`/v3/...`, its own credentials) and the dashboard's page and assets
/// are not admin routes. Unknown `/sandbox/...` paths answer 401 too, not 404: without the token
/// nothing tells which admin routes exist.
///
/// The comparison is of SHA-256 digests, in constant time: neither where a guess goes wrong nor
/// the token's length shows in the time a refusal takes.
struct AdminAuth: Sendable {
    /// `AdminToken.openRoutes`, with the `HEAD` twin the router adds to a `GET`.
    static let openRoutes = AdminToken.openRoutes.union(AdminToken.openRoutes.compactMap(Router.headTwin))

    private let digest: [UInt8]

    /// nil when `token` is nil or empty: no check.
    init?(token: String?) {
        guard let token, !token.isEmpty else { return nil }
        digest = SHA256.hash(Array(token.utf8))
    }

    /// Runs `next` for a request that needs no token or has the right one; else 401.
    package func check(_ request: HTTPRequest, _ context: RequestContext, next: HTTPHandler) -> HTTPResponse {
        guard !context.route.tokenOpen else { return next(request) }
        guard let header = request.headers["Authorization"], let token = Self.bearerToken(header) else {
            return Self.refusal(AdminToken.missing, invalid: false)
        }
        guard constantTimeEquals(SHA256.hash(Array(token.utf8)), digest) else {
            return Self.refusal(AdminToken.invalid, invalid: true)
        }
        return next(request)
    }

    /// The token of `Bearer TOKEN` (scheme without case, RFC 9110 §11.1); nil for another scheme.
    static func bearerToken(_ header: String) -> Substring? {
        let utf8 = header.utf8
        guard utf8.count > 7, let space = utf8.firstIndex(of: UInt8(ascii: " ")),
              header[..<space].lowercased() == "bearer" else { return nil }
        let token = header[space...].drop { $0 == " " }
        return token.isEmpty ? nil : token
    }

    private static func refusal(_ message: String, invalid: Bool) -> HTTPResponse {
        var response = Router.error(401, message)
        response.headers.add("WWW-Authenticate", invalid ? AdminToken.realm + AdminToken.invalidTokenError : AdminToken.realm)
        return response
    }
}
