import SandboxContract
import SandboxBank
import SandboxWire

// CreateLink's recipient page (the PayoutService guide, "Flows"). Prism
// leaves the page to the processor; the sandbox serves one over HTTP/1.1 on its port:
//
//   GET  /prism/payout-links/{token}   a small form: method (card, sepa, ach), holder name, account
//   POST /prism/payout-links/{token}   the form (application/x-www-form-urlencoded): the payout is
//                                      executed (debit, PENDING, the bank's timeline)
//
// A link lives `lifetime` (24 hours) on the virtual clock from the CreateLink: the bank makes a
// payout still awaiting its details EXPIRED then (`PayoutRequest.expiresAfter`), and notifies it.

/// The recipient pages of CreateLink's payouts.
struct PrismLinks: Sendable {
    let bank: Bank

    /// How long a link lives on the virtual clock: 24 hours, as Hyperswitch's default payout
    /// link validity (`session_expiry`, 86400 s).
    static let lifetime = Duration.seconds(24 * 60 * 60)

    /// The response header metadata that carries the link's URL.
    static let header = "x-payout-link"

    /// The pages' path.
    static let path = "/prism/payout-links/"

    /// A token no one can guess: `lnk_` and 32 hex digits.
    static func newToken() -> String {
        let hex = (0 ..< 2).map { _ in
            let bits = String(UInt64.random(in: 0 ... .max), radix: 16)
            return String(repeating: "0", count: 16 - bits.count) + bits
        }
        return "lnk_" + hex.joined()
    }

    /// The page's URL on the host the call reached the sandbox by.
    static func url(host: String?, token: String) -> String { "http://\(host ?? "localhost")\(path)\(token)" }

    /// Adds its pages (declared with their documentation in PrismDocs.swift) to `router`.
    func register(in router: inout Router) {
        router.add(PrismDocs.linkEndpoints, serving: self)
    }

    /// The payout of a link's token; nil for a token this sandbox did not make.
    private func payout(_ token: String) -> Payout? {
        guard token.hasPrefix("lnk_"), token.utf8.count == 36 else { return nil }
        let suffix = Self.path + token
        return bank.payouts().last { $0.dialect == PrismDialect.name && $0.fields[PrismPayout.Field.link]?.hasSuffix(suffix) == true }
    }

    /// The form, or why there is none: 404 for an unknown link, 410 for one expired or used.
    func page(_ token: String) -> HTTPResponse {
        guard let payout = payout(token) else { return Self.html(404, "Link not found", "This link is not one this sandbox made.") }
        guard payout.status == .awaitingDetails else { return closed(payout) }
        let amount = "\(payout.currency) \(payout.amount)"
        let form = """
            <form method="post" action="\(Self.path)\(token)">
            <label>Method <select name="method"><option value="card">Card</option><option value="sepa">SEPA transfer</option>\
            <option value="ach">ACH transfer</option></select></label>
            <label>Holder name <input name="holder_name" required></label>
            <label>Card number, IBAN or account number <input name="account" required></label>
            <button type="submit">Receive \(Self.escape(amount))</button>
            </form>
            """
        return Self.html(200, "Receive your payout", "Enter where to receive \(amount) (payout \(payout.id)).", raw: form)
    }

    /// The form sent: the payout executed (debit, PENDING, timeline) with the method and the
    /// holder's name entered (scenario rules, magic names included, see them); 400 for a form
    /// missing a field, 402 when the merchant's balance or limits refuse it now.
    func submit(_ token: String, _ body: [UInt8]) -> HTTPResponse {
        guard let payout = payout(token) else { return Self.html(404, "Link not found", "This link is not one this sandbox made.") }
        guard payout.status == .awaitingDetails else { return closed(payout) }
        let form = Dictionary((FormURLEncoding.decode(body) ?? []).map { ($0.name, $0.value) }) { first, _ in first }
        guard ["card", "sepa", "ach"].contains(form["method"] ?? ""), let holder = form["holder_name"], !holder.isEmpty,
              let account = form["account"], !account.isEmpty else {
            return Self.html(400, "Details missing", "Choose a method and enter the holder's name and the account.")
        }
        do throws(PayoutRefusal) {
            let details: Fields = [PrismPayout.Field.method: form["method"] ?? "", PrismPayout.Field.recipientName: holder]
            _ = try bank.execute(payoutID: payout.id, by: "recipient", adding: PayoutDetails(fields: details))
        } catch {
            if case .notExecutable = error { return closed(bank.payout(id: payout.id) ?? payout) }
            let reason = (try? PrismAPI.decline(error, currency: payout.currency))?.1 ?? PrismMessage.rejected
            return Self.html(402, "Payout refused", "The payout cannot be made now: \(reason).")
        }
        return Self.html(200, "Payout on its way", "Your details were received: \(payout.currency) \(payout.amount) is on its way.")
    }

    private func closed(_ payout: Payout) -> HTTPResponse {
        Self.html(410, "Link closed", "This link can no longer be used: the payout is \(PrismPayout.status(payout.status)).")
    }

    private static func escape(_ text: String) -> String {
        text.map { $0 == "&" ? "&amp;" : $0 == "<" ? "&lt;" : $0 == ">" ? "&gt;" : $0 == "\"" ? "&quot;" : String($0) }.joined()
    }

    private static func html(_ status: Int, _ title: String, _ text: String, raw: String = "") -> HTTPResponse {
        let page = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title></head>
            <body><h1>\(escape(title))</h1><p data-testid="link-result">\(escape(text))</p>\(raw)</body></html>
            """
        return HTTPResponse(status: status, headers: ["Content-Type": "text/html; charset=utf-8",
                                                      "Content-Security-Policy": "default-src 'none'; form-action 'self'"],
                            body: Array(page.utf8))
    }
}
