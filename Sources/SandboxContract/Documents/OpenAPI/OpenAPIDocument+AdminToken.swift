import SandboxSupport

// The admin token (`serve --admin-token`, CashoutSandbox/Middleware/AdminAuth.swift) and the metrics endpoint.
// An admin operation lists two security alternatives, the token or nothing, because the token is
// needed only when the sandbox was started with one; its 401 answer is documented the same way.

extension OpenAPIDocument {

    /// `components.securitySchemes.AdminToken`.
    static let adminTokenScheme: JSON = [
        "type": "http", "scheme": "bearer",
        "description": """
            `Authorization: Bearer <admin token>`, needed by every `/sandbox/...` operation but `GET /sandbox/health` \
            and `POST /sandbox/sink/{name}` when the sandbox runs with `--admin-token` (or CASHOUT_SANDBOX_ADMIN_TOKEN).
            """,
    ]

    /// `endpoint` with the admin token as an alternative to no security, and its 401, when it is
    /// an admin route (`/sandbox/...`) that needs the token.
    static func adminTokenProtected(_ endpoint: OpenAPIEndpoint) -> OpenAPIEndpoint {
        guard endpoint.path.hasPrefix("/sandbox/"), !AdminToken.openRoutes.contains(endpoint.route), case .object(var operation) = endpoint.operation,
              case .object(var responses)? = operation["responses"] else { return endpoint }
        operation["security"] = [["AdminToken": []], [:]]
        guard case .object(var unauthorized) = OpenAPI.errors(
            "Only with --admin-token: the token is missing or wrong",
            [OpenAPI.failure(401, AdminToken.missing), OpenAPI.failure(401, AdminToken.invalid)]) else { return endpoint }
        unauthorized["headers"] = [
            "WWW-Authenticate": [
                "description": .string("`\(AdminToken.realm)`, with `\(AdminToken.invalidTokenError)` for a wrong token"),
                "schema": Schema.string(),
            ],
        ]
        responses["401"] = .object(unauthorized)
        operation["responses"] = .object(responses)
        return OpenAPIEndpoint(route: endpoint.route, operation: .object(operation))
    }

    /// `GET /sandbox/metrics`, which the admin API answers once it knows every route.
    static func metricsEndpoint<Admin: AdminServing>() -> Endpoint<Admin> {
        Endpoint<Admin>(AdminRoute.getMetrics, OpenAPI.operation(
            tag: "Sandbox", summary: "Prometheus metrics",
            description: """
                Text exposition format 0.0.4: `cashout_sandbox_http_requests_total` (by route pattern and status), \
                `cashout_sandbox_http_request_duration_seconds` (histogram by route pattern), `cashout_sandbox_cashouts` \
                (by status), `cashout_sandbox_webhook_attempts_total` (by outcome), with --state-dir \
                `cashout_sandbox_journal_fsync_seconds` (histogram), `cashout_sandbox_journal_bytes` and \
                `cashout_sandbox_journal_compactions_total`, and `cashout_sandbox_build_info`.
                """,
            responses: ["200": [
                "description": "The metrics",
                "content": ["text/plain": ["schema": Schema.string(), "example": """
                    # HELP cashout_sandbox_cashouts Cashouts by current status (a late return counts as REJECTED).
                    # TYPE cashout_sandbox_cashouts gauge
                    cashout_sandbox_cashouts{status="PENDING"} 1
                    """]],
            ]])) { $0.getMetrics($1) }
    }
}
