import SandboxBank
import SandboxWire
import SandboxSupport

// Why a D24 request was refused, in the documented order (the Behaviour and
// choices guide, the credentials check order): the credentials in the body, the passphrase, the signature
// (D24Diagnosis+Signature), the IP allow-list; and the read-only key of the GET endpoints. Built
// only when a check fails; the answer's bytes stay the provider's (D24Error), the diagnosis
// travels beside them to the request log and the log.

/// The diagnoses of refused D24 authentication.
enum D24Diagnosis {
    /// `login` or `pass` absent, or not a string.
    static func missingCredentials(_ body: D24Body) -> Diagnosis {
        let problem = ["login", "pass"].first { if case .string? = body[$0] { false } else { true } } ?? "login"
        let why = body[problem] == nil ? "has no \"\(problem)\"" : "has a \"\(problem)\" that is not a JSON string"
        return Diagnosis("missing_credentials",
                         "The body \(why): D24 takes the API key as \"login\" and the passphrase as \"pass\", strings in the JSON body (no header)",
                         ["field": .string(problem)])
    }

    /// `login` names no D24 merchant.
    static func unknownLogin(_ login: String, bank: Bank) -> Diagnosis {
        let merchants = merchants(bank).map(\.login)
        let details: [String: JSON] = ["login": .string(login), "merchants": .array(merchants.prefix(20).map { .string($0) })]
        if let other = bank.account(id: login) {
            return Diagnosis("unknown_login", "login \"\(login)\" is an account of the \(other.dialect) API, not a D24 merchant", details)
        }
        let known = merchants.isEmpty ? "it has none" : "its D24 merchants are " + merchants.prefix(5).joined(separator: ", ")
        return Diagnosis("unknown_login", "login \"\(login)\" is not a merchant of this sandbox: \(known) (GET /sandbox/merchants lists them)",
                         details)
    }

    /// `pass` is not the merchant's passphrase.
    static func wrongPass(_ pass: String, _ merchant: D24Merchant) -> Diagnosis {
        var message = "pass does not match merchant \(merchant.login)'s passphrase \"\(merchant.pass)\""
        if pass == merchant.secret { message += ": the secret (API signature) was sent as pass" }
        return Diagnosis("wrong_pass", message, ["login": .string(merchant.login), "expected_pass": .string(merchant.pass),
                                                 "received_pass": .string(pass)])
    }

    /// The client's address is not on the merchant's allow-list.
    static func ipNotAllowed(_ address: String?, _ merchant: D24Merchant) -> Diagnosis {
        let list = merchant.allowedIPs
        return Diagnosis("ip_not_allowed",
                         "The request came from \(address ?? "an unknown address"), which is not on merchant \(merchant.login)'s allow-list "
                             + "(\(list.joined(separator: ", "))): add it with PUT /sandbox/merchants/\(merchant.login) {\"allowed_ips\": [...]}",
                         ["login": .string(merchant.login), "address": address.map(JSON.string) ?? .null,
                          "allowed_ips": .array(list.map { .string($0) })])
    }

    /// The GET endpoints' `Authorization: Bearer <read-only key>`, missing or matching no merchant.
    static func readOnlyKey(_ header: String?, bank: Bank) -> Diagnosis {
        let merchants = merchants(bank)
        let keyed = merchants.filter { !$0.readOnlyKey.isEmpty }.prefix(20)
        let keys: JSON = .object(Dictionary(keyed.map { ($0.login, .string($0.readOnlyKey)) }) { $1 })
        let example = merchants.first { !$0.readOnlyKey.isEmpty }.map { " (\($0.login)'s is \($0.readOnlyKey))" } ?? ""
        guard let header else {
            return Diagnosis("authorization_missing", "No Authorization header: send \"Authorization: Bearer <read-only key>\"\(example)",
                             ["read_only_keys": keys])
        }
        guard header.hasPrefix("Bearer "), header.count > 7 else {
            return Diagnosis("authorization_scheme", "Authorization must be \"Bearer <read-only key>\" (the word Bearer, one space, the key), "
                                 + "not \"\(header)\"\(example)", ["received": .string(header), "read_only_keys": keys])
        }
        let key = String(header.dropFirst(7))
        var message = "\"\(key)\" is no merchant's read-only key\(example)"
        if let merchant = merchants.first(where: { [$0.login, $0.pass, $0.secret].contains(key) }) {
            let what = key == merchant.login ? "login (API key)" : key == merchant.pass ? "pass" : "secret (API signature)"
            message = "\"\(key)\" is merchant \(merchant.login)'s \(what), not its read-only key \"\(merchant.readOnlyKey)\""
        }
        return Diagnosis("unknown_read_only_key", message, ["received_key": .string(key), "read_only_keys": keys])
    }

    static func merchants(_ bank: Bank) -> [D24Merchant] {
        bank.accounts.compactMap(D24Merchant.init(owned:))
    }
}
