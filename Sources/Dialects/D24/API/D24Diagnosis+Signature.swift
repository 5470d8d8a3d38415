import SandboxBank
import SandboxSupport
import SandboxWire

// A Payload-Signature that does not match: the signature expected over the exact bytes received,
// the one received, the secret, and the likely cause, tried in this order:
//   uppercase_hex      the right HMAC in uppercase ("Calculating the Payload-Signature": lowercase only)
//   base64             the right HMAC in base64 (the Java example of some D24 pages)
//   stale_secret       the merchant's secret before the last PUT /sandbox/merchants changed it
//   other_merchant     another D24 merchant's secret
//   other_credential   the merchant's pass, login or read-only key used as the HMAC key (D24
//                      hands out four credentials; the secret is the one that signs)
//   reserialized_body  the same JSON serialized otherwise (spaces, indentation, key order, a
//                      trailing newline): the client signed one string and sent another
//   not_a_signature    not 64 hex digits at all
//   different_body     none of these: a signature over other bytes, or with another secret

extension D24Diagnosis {
    /// `Payload-Signature` absent (`received` nil) or not `expected`.
    static func signature(received: String?, expected: String, body: [UInt8], merchant: D24Merchant, bank: Bank,
                          keys: D24SigningKeys) -> Diagnosis {
        var details: [String: JSON] = ["login": .string(merchant.login), "expected_signature": .string(expected),
                                       "secret": .string(merchant.secret)]
        guard let received else {
            return Diagnosis("signature_missing", "No Payload-Signature header: send the lowercase hex HMAC-SHA256 of the exact body bytes, "
                                 + "keyed with merchant \(merchant.login)'s secret \"\(merchant.secret)\"", details)
        }
        details["received_signature"] = .string(received)
        let (cause, message, extra) = likelyCause(received, expected: expected, body: body, merchant: merchant, bank: bank, keys: keys)
        details["likely_cause"] = .string(cause)
        details.merge(extra) { $1 }
        return Diagnosis("signature_mismatch", "Payload-Signature does not match the HMAC-SHA256 of the body with merchant "
                             + "\(merchant.login)'s secret: \(message)", details)
    }

    private static func likelyCause(_ received: String, expected: String, body: [UInt8], merchant: D24Merchant, bank: Bank,
                                    keys: D24SigningKeys) -> (String, String, [String: JSON]) {
        let sent = received.lowercased()
        if sent == expected { return ("uppercase_hex", "it is the right HMAC in uppercase hex; D24 wants lowercase", [:]) }
        let code = HMACSHA256.authenticationCode(for: body, key: keys.key(for: merchant))
        if sent.filter({ $0 != "=" }) == base64(code).lowercased() {
            return ("base64", "it is the right HMAC in base64; D24 wants it as 64 lowercase hex digits", [:])
        }
        func signs(_ bytes: [UInt8], _ secret: String) -> Bool { sent == D24Signature.payload(of: bytes, key: keys.key(secret: secret)) }
        if let previous = merchant.previousSecret, signs(body, previous) {
            return ("stale_secret", "it was made with the merchant's previous secret \"\(previous)\"; the secret is now \"\(merchant.secret)\"",
                    ["previous_secret": .string(previous)])
        }
        if let other = merchants(bank).first(where: { $0.login != merchant.login && signs(body, $0.secret) }) {
            return ("other_merchant", "it was made with merchant \(other.login)'s secret \"\(other.secret)\"", ["signed_with": .string(other.login)])
        }
        let credentials = [("pass (passphrase)", merchant.pass), ("login (API key)", merchant.login), ("read-only key", merchant.readOnlyKey)]
        if let (name, value) = credentials.first(where: { !$0.1.isEmpty && $0.1 != merchant.secret && signs(body, $0.1) }) {
            return ("other_credential", "it was made with the merchant's \(name) \"\(value)\" as the key; the key is its secret "
                        + "(API signature) \"\(merchant.secret)\"", [:])
        }
        for (variant, bytes) in reserializations(of: body) where bytes != body && signs(bytes, merchant.secret) {
            return ("reserialized_body", "it signs the same JSON serialized otherwise (\(variant)), not the bytes sent: "
                        + "sign the exact string you send",
                    ["signed_body": .string(String(decoding: bytes, as: UTF8.self))])
        }
        if sent.utf8.count != 64 || !sent.utf8.allSatisfy(\.isLowercaseHexDigit) {
            return ("not_a_signature", "it is not 64 hex digits (\(received.utf8.count) characters received)", [:])
        }
        return ("different_body", "it is a signature over other bytes, or with another secret: "
                    + "sign the exact body sent with \"\(merchant.secret)\"", [:])
    }

    /// Standard base64 without its padding.
    private static func base64(_ bytes: [UInt8]) -> String {
        String(Base64URL.encode(bytes).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
    }

    /// The body serialized the ways clients serialize JSON, each described for the message.
    static func reserializations(of body: [UInt8]) -> [(String, [UInt8])] {
        guard let sorted = (try? JSON.parse(body))?.serialized() else { return [] }
        var variants: [(String, [UInt8])] = []
        for (order, bytes) in [("keys in the order sent", body), ("keys sorted", sorted)] {
            for layout in JSONLayout.all { variants.append(("\(order), \(layout.name)", layout.apply(to: bytes))) }
        }
        var trimmed = body[...]
        while let last = trimmed.last, JSONLayout.isSpace(last) { trimmed = trimmed.dropLast() }
        variants.append(("without the trailing whitespace sent", Array(trimmed)))
        variants.append(("with a trailing newline", body + [UInt8(ascii: "\n")]))
        return variants
    }
}

extension UInt8 {
    fileprivate var isLowercaseHexDigit: Bool {
        (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a") ... UInt8(ascii: "f")).contains(self)
    }
}
