import SandboxContract

/// D24 Cashouts v3's operations, each declared once (D24's pages "Cashout creation", "Cashout
/// status", "Cashout cancellation", "Bank codes", "Exchange rates"): `D24OpenAPI` binds each to its
/// description and handler, the report and faults read their roles.
enum D24Operation {
    static let create = APIOperation("createCashout", .http("POST", "/v3/cashout"), role: .create)
    static let status = APIOperation("getCashoutStatus", .http("POST", "/v3/cashout/status"), role: .statusQuery)
    static let updateStatus = APIOperation("updateCashoutStatus", .http("PUT", "/v3/cashout/status"), role: .update)
    static let cancel = APIOperation("cancelCashout", .http("DELETE", "/v3/cashout/cancel"), role: .update)
    static let banks = APIOperation("listBanks", .http("GET", "/v3/banks"), role: .reference)
    static let exchangeRate = APIOperation("getExchangeRate", .http("GET", "/v3/exchange_rates"), role: .reference)

    /// In the order the router serves them and the document lists them.
    static let all = [create, status, updateStatus, cancel, banks, exchangeRate]
}
