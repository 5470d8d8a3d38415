package import SandboxBank
package import SandboxContract
import SandboxWire
package import SandboxSupport

/// What a request is about, as a scenario's faults read it before it is handled: the account it
/// names, the payout it names, and an identity that is the same for the same request of the same
/// app in another run (its API and route, its account, and the payout it asks for or names by its
/// content and occurrence, never an id the app makes), which a rate's draw is keyed on.
package struct RequestSubject: Sendable {
    /// Describes a request: the request, its route's name (nil when no route matched), its API and its operation of that API
    /// (nil for none), its body as JSON, and its facts as its readers share them.
    typealias Describe = @Sendable (_ request: HTTPRequest, _ route: String?, _ operation: (dialect: String, APIOperation)?,
                                            _ body: JSON?, _ facts: KeptFacts?) -> RequestSubject

    package let identity: String
    package let account: String?
    /// It asks for a payout to be made.
    package var creates = false
    /// The payout it names by the sandbox's id or the app's reference (not a create's: that one is asked for).
    package let payout: Payout?
    /// For a create: what it asks for, as sent (`RequestFacts.content`).
    package var content: [String: JSON] = [:]

    init(identity: String, account: String?, creates: Bool = false, payout: Payout?, content: [String: JSON] = [:]) {
        self.identity = identity
        self.account = account
        self.creates = creates
        self.payout = payout
        self.content = content
    }

    /// Whether `payout` passes each test of a fault's `payout` (field, `merchant` or `dialect`: matcher).
    package static func matches(_ tests: [String: Matcher], _ payout: Payout) -> Bool {
        tests.allSatisfy { name, matcher in
            switch name {
            case "merchant": matcher.matches(payout.account)
            case "dialect": matcher.matches(payout.dialect)
            case Rule.occurrence: matcher.matches(String(payout.occurrence))
            default: matcher.matches(payout.fields[name])
            }
        }
    }

    /// What each request is about, read by its operation's API (`APIContract.facts(of:bank:)`) from the bank:
    /// a create by its beneficiary and amount; a request naming a payout by that payout's content
    /// (`Payout.contentKey`, over `contentFields`, and `Payout.occurrence`); any other by its route and account.
    static func describing(dialects: [String: any Dialect], bank: Bank, contentFields: Set<String>) -> Describe {
        { request, route, operation, body, kept in
            let place = route ?? "\(request.method) \(request.path)"
            guard let (name, operation) = operation, let api = dialects[name], case let kept = kept ?? KeptFacts(),
                case let call = OperationCall(operation, headers: request.headers, body: body),
                let facts = kept.asked({ api.facts(of: call, bank: bank) })
            else { return RequestSubject(identity: place, account: nil, payout: nil) }
            let account = facts.account ?? ""
            if case .create(let beneficiary, let amount) = facts.action {
                return RequestSubject(identity: [name, place, account, "create", beneficiary, amount].joined(separator: "\u{0}"),
                                      account: facts.account, creates: true, payout: nil, content: facts.content)
            }
            let payout = facts.payout(in: bank)
            let about = payout.map { "payout \($0.contentKey(contentFields)) \($0.occurrence)" } ?? ""
            return RequestSubject(identity: [name, place, account, about].joined(separator: "\u{0}"), account: facts.account, payout: payout)
        }
    }
}
