import SandboxBank
import SandboxWire
import SandboxSupport

// Linking payout methods (Mannco.store's API docs, the older "Cashout" page's contract, in the err/success/content
// envelope): `POST /cashout/link {"provider"}` and `POST /cashout/unlink {"provider"}`. Payoneer and
// PayPal answer a URL the user opens to finish: here a page the sandbox serves, which links the
// method when opened. Tipalti links at once from its payee fields.

/// `POST /cashout/link`, `POST /cashout/unlink` and the link page `GET /cashout/link/{token}`.
struct ManncoLinks: Sendable {
    let bank: Bank

    /// The provider a body names: "Missing required parameter: provider", ManncoMessage.invalidProvider.
    private static func provider(_ body: [String: JSON], allowed: [ManncoProvider]) throws(ManncoError) -> ManncoProvider {
        guard let name = body["provider"], !name.isNull else { throw .missing("provider") }
        guard let provider = name.stringValue.flatMap(ManncoProvider.init(rawValue:)), allowed.contains(provider) else {
            throw .business(ManncoMessage.invalidProvider)
        }
        return provider
    }

    func link(_ request: HTTPRequest, user: ManncoUser) throws(ManncoError) -> HTTPResponse {
        let body = ManncoBody.fields(request)
        let provider = try Self.provider(body, allowed: ManncoProvider.allCases)
        guard provider == .tipalti else {
            let host = request.headers["Host"] ?? "localhost"
            let url = "http://\(host)/cashout/link/\(ManncoToken.linkToken(user: user.id, provider: provider, at: bank.clock.now))"
            return ManncoResponse.success(.object([("message", .value(.string(ManncoMessage.linkCreated))), ("link", .value(.string(url))),
                                                   ("provider", .value(.string(provider.rawValue))), ("method", "link")]))
        }
        try TipaltiPayee.check(body)
        let payeeID = "payee_\(user.id)"
        let already = try change(user.id) { account in
            let already = ManncoUser(account).linked.contains(.tipalti)
            ManncoUser.setting(.tipalti, linked: true, in: &account)
            account.settings[ManncoUser.Key.tipaltiPayeeID] = payeeID
            return already
        }
        return ManncoResponse.success(.object([("message", .value(.string(ManncoMessage.tipaltiCreated))), ("provider", "tipalti"),
                                               ("payeeId", .value(.string(payeeID))), ("alreadyExists", .value(.bool(already)))]))
    }

    func unlink(_ request: HTTPRequest, user: ManncoUser) throws(ManncoError) -> HTTPResponse {
        _ = try Self.provider(ManncoBody.fields(request), allowed: [.payoneer])
        let unlinked = try change(user.id) { account in
            guard ManncoUser(account).linked.contains(.payoneer) else { return false }
            ManncoUser.setting(.payoneer, linked: false, in: &account)
            return true
        }
        guard unlinked else { throw .business(ManncoMessage.unlinkFailed) }
        return ManncoResponse.success(.object([("message", .value(.string(ManncoMessage.payoneerUnlinked))), ("provider", "payoneer")]))
    }

    /// Changes a user's account in one step under the bank's lock (journaled); returns what
    /// `change` says. 403 when the user is gone.
    private func change(_ id: String, _ change: (inout Account) -> Bool) throws(ManncoError) -> Bool {
        var result = false
        do throws(Bank.AccountChangeError) {
            _ = try bank.updateAccount(id: id, creatingFrom: nil) { account in
                guard ManncoUser(owned: account) != nil else { return "not a user" }
                result = change(&account)
                return nil
            }
        } catch {
            throw .noToken
        }
        return result
    }

    /// The page a Payoneer or PayPal link opens: links the method and says so; 404 for a token
    /// this sandbox did not make, or a user that is gone; 410 once it expired (a day after it was
    /// made, so that an old link does not link a method unlinked since).
    func page(_ token: String) -> HTTPResponse {
        guard let (id, provider, expires) = ManncoToken.link(token) else {
            return Self.html(status: 404, title: "Link not found", text: "This link is not one this sandbox made.")
        }
        guard bank.clock.now.milliseconds / 1000 < expires else {
            return Self.html(status: 410, title: "Link expired", text: "This link has expired: ask for a new one with POST /cashout/link.")
        }
        guard (try? change(id, { account in ManncoUser.setting(provider, linked: true, in: &account); return true })) != nil else {
            return Self.html(status: 404, title: "Link not found", text: "The user of this link is gone.")
        }
        return Self.html(status: 200, title: "\(provider.title) linked",
                         text: "The \(provider.title) account of user \(id) is linked. You can close this page and request a cashout.")
    }

    private static func html(status: Int, title: String, text: String) -> HTTPResponse {
        let escape = { (text: String) in
            text.map { character in character == "&" ? "&amp;" : character == "<" ? "&lt;" : character == ">" ? "&gt;" : String(character) }.joined()
        }
        let page = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title></head>
            <body><h1>\(escape(title))</h1><p data-testid="link-result">\(escape(text))</p></body></html>
            """
        return HTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": "default-src 'none'"],
                            body: Array(page.utf8))
    }
}

/// Tipalti's payee fields on `POST /cashout/link` (the Mannco guide, "Endpoints"): `payeeType` Individual (the
/// default) or Company; `firstName` and `lastName` for an individual, `companyName` for a
/// company; `email`; `address` with `address1`, `city`, `postalCode` and `country`.
enum TipaltiPayee {
    static func check(_ body: [String: JSON]) throws(ManncoError) {
        func present(_ value: JSON?) -> Bool { value?.stringValue.map { !$0.isEmpty } ?? false }
        let type = body["payeeType"]?.stringValue ?? "Individual"
        guard type == "Individual" || type == "Company" else { throw .business(ManncoMessage.invalidPayeeType) }
        let required = type == "Individual" ? ["firstName", "lastName", "email"] : ["companyName", "email"]
        if let missing = required.first(where: { !present(body[$0]) }) { throw .missing(missing) }
        guard let address = body["address"]?.objectValue else { throw .missing("address") }
        if let missing = ["address1", "city", "postalCode", "country"].first(where: { !present(address[$0]) }) {
            throw .missing("address.\(missing)")
        }
    }
}
