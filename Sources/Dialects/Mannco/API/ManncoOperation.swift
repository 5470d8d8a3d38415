import SandboxContract

/// Mannco's user-cashout operations, each declared once: `ManncoOpenAPI` binds each to its
/// description and handler, the report, the steps and faults read their roles.
enum ManncoOperation {
    static let login = APIOperation("manncoLogin", .http("POST", "/user/login"), role: .login)
    static let process = APIOperation("manncoProcessCashout", .http("POST", "/cashout/process"), role: .create)
    static let history = APIOperation("manncoCashoutHistory", .http("GET", "/user/getCashoutHistory"), role: .statusQuery)
    static let balance = APIOperation("manncoBalance", .http("GET", "/user/balance"), role: .reference)
    static let link = APIOperation("manncoLinkMethod", .http("POST", "/cashout/link"), role: .reference)
    static let unlink = APIOperation("manncoUnlinkMethod", .http("POST", "/cashout/unlink"), role: .reference)
    static let openLink = APIOperation("manncoOpenLink", .http("GET", "/cashout/link/{token}"), role: .reference)
    /// The users' email outbox, in the admin API's place.
    static let emails = APIOperation("listManncoEmails", .http("GET", "/sandbox/emails"), role: .admin)

    /// In the order the router serves them, the email outbox last.
    static let all = [login, process, history, balance, link, unlink, openLink, emails]
}
