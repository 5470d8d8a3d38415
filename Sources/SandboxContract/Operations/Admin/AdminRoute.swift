/// The route group of every admin route: `/sandbox` and under it (`AdminAPI.group`), which the
/// request log and the faults tell apart.
package let adminRouteGroup = "/sandbox"

/// The admin API's operations, each written once under its operation id: the admin API's
/// endpoint declarations (`OpenAPIDocument.adminEndpoints(for:)`), the Postman collection's
/// admin requests (`PostmanCollection+Admin.swift`) and the dashboard's table of operations
/// name them.
package enum AdminRoute {
    static let listAccounts = APIOperation("listAccounts", .http("GET", "/sandbox/accounts"), role: .admin)
    static let listAccountsOfAPI = APIOperation("listAccountsOfAPI", .http("GET", "/sandbox/accounts/{dialect}"), role: .admin)
    static let getAccount = APIOperation("getAccount", .http("GET", "/sandbox/accounts/{dialect}/{id}"), role: .admin)
    static let putAccount = APIOperation("putAccount", .http("PUT", "/sandbox/accounts/{dialect}/{id}"), role: .admin)
    static let getHealth = APIOperation("getHealth", .http("GET", "/sandbox/health"), role: .admin)
    static let getClock = APIOperation("getClock", .http("GET", "/sandbox/clock"), role: .admin)
    package static let advanceClock = APIOperation("advanceClock", .http("POST", "/sandbox/clock/advance"), role: .admin)
    static let loadScenario = APIOperation("loadScenario", .http("POST", "/sandbox/scenario"), role: .admin)
    package static let reset = APIOperation("reset", .http("POST", "/sandbox/reset"), role: .admin)
    static let listCashouts = APIOperation("listCashouts", .http("GET", "/sandbox/cashouts"), role: .admin)
    static let getCashout = APIOperation("getCashout", .http("GET", "/sandbox/cashouts/{id}"), role: .admin)
    static let getCashoutTimeline = APIOperation("getCashoutTimeline", .http("GET", "/sandbox/cashouts/{id}/timeline"), role: .admin)
    static let forceCashoutAction = APIOperation("forceCashoutAction", .http("POST", "/sandbox/cashouts/{id}/actions"), role: .admin)
    static let getLedger = APIOperation("getLedger", .http("GET", "/sandbox/ledger"), role: .admin)
    static let listWebhooks = APIOperation("listWebhooks", .http("GET", "/sandbox/webhooks"), role: .admin)
    package static let redeliverWebhook = APIOperation("redeliverWebhook", .http("POST", "/sandbox/webhooks/{id}/redeliver"), role: .admin)
    package static let sendWebhookChaos = APIOperation("sendWebhookChaos", .http("POST", "/sandbox/webhooks/{id}/chaos"), role: .admin)
    static let getWebhookChaos = APIOperation("getWebhookChaos", .http("GET", "/sandbox/webhooks/chaos"), role: .admin)
    package static let putWebhookChaos = APIOperation("putWebhookChaos", .http("PUT", "/sandbox/webhooks/chaos"), role: .admin)
    static let getSink = APIOperation("getSink", .http("GET", "/sandbox/sink/{name}"), role: .admin)
    static let scriptSink = APIOperation("scriptSink", .http("PUT", "/sandbox/sink/{name}"), role: .admin)
    static let clearSink = APIOperation("clearSink", .http("DELETE", "/sandbox/sink/{name}"), role: .admin)
    package static let postToSink = APIOperation("postToSink", .http("POST", "/sandbox/sink/{name}"), role: .admin)
    package static let getMetrics = APIOperation("getMetrics", .http("GET", "/sandbox/metrics"), role: .admin)
    static let getReport = APIOperation("getReport", .http("GET", "/sandbox/report"), role: .admin)
    package static let reconcile = APIOperation("reconcile", .http("POST", "/sandbox/reconcile"), role: .admin)
    static let getSuite = APIOperation("getSuite", .http("GET", "/sandbox/suite"), role: .admin)
    static let listRequests = APIOperation("listRequests", .http("GET", "/sandbox/requests"), role: .admin)
    static let verifyRequests = APIOperation("verifyRequests", .http("POST", "/sandbox/requests/verify"), role: .admin)
    static let clearRequests = APIOperation("clearRequests", .http("DELETE", "/sandbox/requests"), role: .admin)
    static let getSnapshot = APIOperation("getSnapshot", .http("GET", "/sandbox/snapshot"), role: .admin)
    package static let putSnapshot = APIOperation("putSnapshot", .http("PUT", "/sandbox/snapshot"), role: .admin)

    /// Every one, in the order above.
    package static let all = [
        listAccounts,
        listAccountsOfAPI,
        getAccount,
        putAccount,
        getHealth,
        getClock,
        advanceClock,
        loadScenario,
        reset,
        listCashouts,
        getCashout,
        getCashoutTimeline,
        forceCashoutAction,
        getLedger,
        listWebhooks,
        redeliverWebhook,
        sendWebhookChaos,
        getWebhookChaos,
        putWebhookChaos,
        getSink,
        scriptSink,
        clearSink,
        postToSink,
        getMetrics,
        getReport,
        reconcile,
        getSuite,
        listRequests,
        verifyRequests,
        clearRequests,
        getSnapshot,
        putSnapshot,
    ]
}
