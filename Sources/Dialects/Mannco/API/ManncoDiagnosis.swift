import SandboxBank
import SandboxSupport
import SandboxWire

// Why Mannco refused a request's authentication: the API key at login, or the JWT of every other
// route, in ManncoToken's order (header, scheme, signature, algorithm, claims, expiry), then a
// user the token names that is gone. Built only when a check fails; the answer stays the API's
// `forbidden` (ManncoError), the diagnosis travels beside it.

/// The diagnoses of refused Mannco authentication.
enum ManncoDiagnosis {
    /// The check of a token that expired: the integration report follows what the app does next.
    static let expiredCheck = "jwt_expired"

    static let tokenMissing = Diagnosis("token_missing", "No Authorization header: log in with POST /user/login {\"apiKey\"} and send "
                                            + "\"Authorization: Bearer <jwt>\" with the jwt it answers")

    static func scheme(_ header: String) -> Diagnosis {
        // The token alone is the usual slip: say so rather than show the start of a long token.
        if header.split(separator: ".", omittingEmptySubsequences: false).count == 3, !header.contains(" ") {
            return Diagnosis("authorization_scheme", "Authorization holds the token alone: send \"Bearer \" before it "
                                 + "(\"Authorization: Bearer <jwt>\")", ["received": .string(header)])
        }
        return Diagnosis("authorization_scheme", "Authorization must be \"Bearer <jwt>\", not \"\(header.prefix(40))\"",
                         ["received": .string(header)])
    }

    /// A token that `JSONWebToken.verify` refused: malformed, or signed with another secret.
    static func unverified(_ token: Substring) -> Diagnosis {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ Base64URL.decode($0) != nil }) else {
            return Diagnosis("jwt_invalid", "The token is not a JWT: three base64url parts separated by dots (\(parts.count) part(s) received)",
                             ["reason": "malformed"])
        }
        return Diagnosis("jwt_invalid", "The token's signature is not this sandbox's: it signs tokens with HS256 and the secret "
                             + "\"\(ManncoToken.secret)\"; get one from POST /user/login",
                         ["reason": "signature", "secret": .string(ManncoToken.secret)])
    }

    static func algorithm(_ algorithm: JSON?) -> Diagnosis {
        Diagnosis("jwt_invalid", "The token's header says alg \(algorithm.map { String(decoding: $0.serialized(), as: UTF8.self) } ?? "nothing"); "
                      + "this sandbox takes HS256 only", ["reason": "algorithm"])
    }

    /// Claims that are not JSON, or lack `iss` "API" or a `sub`.
    static func claims(_ bytes: [UInt8]) -> Diagnosis {
        let text = String(decoding: bytes, as: UTF8.self)
        return Diagnosis("jwt_invalid", "The token's claims need \"iss\": \"API\" and the user's id as \"sub\"; they are \(text.prefix(200))",
                         ["reason": "claims", "claims": .string(text)])
    }

    /// `exp` at or before the virtual now (or absent, or not a whole number).
    static func expired(_ exp: JSON?, now: VirtualTime) -> Diagnosis {
        guard let text = exp?.numberText, let seconds = Int64(text), seconds.magnitude < UInt64(Int64.max / 1000) else {
            return Diagnosis("jwt_invalid", "The token has no \"exp\" of whole unix seconds", ["reason": "claims"])
        }
        let expiry = VirtualTime(milliseconds: seconds * 1000).iso8601
        return Diagnosis(expiredCheck, "The token expired at \(expiry) (exp \(seconds)); the sandbox's clock is at \(now.iso8601): "
                             + "log in again with POST /user/login",
                         ["exp": .number(text), "expired_at": .string(expiry), "now": .string(now.iso8601)])
    }

    /// A valid token whose `sub` names no user (any more: a reset, a restored snapshot).
    static func unknownUser(_ id: String) -> Diagnosis {
        Diagnosis("unknown_user", "The token names user \(id), which this sandbox does not have (any more: a reset forgets users "
                      + "the admin API made); log in again", ["user": .string(id)])
    }

    /// `POST /user/login` with an API key no user has.
    static func unknownAPIKey(_ key: String, bank: Bank) -> Diagnosis {
        let users = bank.accounts.compactMap(ManncoUser.init(owned:))
        var message = "apiKey \"\(key)\" is no user's API key"
        if let user = users.first(where: { $0.id == key }) {
            message += ": it is a user's id; that user's API key is \"\(user.apiKey)\""
        } else if let first = users.first {
            message += " (user \(first.id)'s is \"\(first.apiKey)\"; GET /sandbox/users lists them)"
        }
        return Diagnosis("unknown_api_key", message, ["received_api_key": .string(key),
                                                       "api_keys": .object(Dictionary(users.prefix(20).map { ($0.id, .string($0.apiKey)) }) { $1 })])
    }
}
