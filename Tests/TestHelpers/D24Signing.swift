import SandboxSupport

/// D24's signatures as a client computes them, written once for every test target: from the
/// docs ("Calculating the Payload-Signature", "Notifications": `control`) on SandboxSupport's HMAC, not through the
/// sandbox's own `D24Signature`, so that the tests check it rather than repeat it.
package enum D24Signing {
    /// The `Payload-Signature` of a body: lowercase hex HMAC-SHA256 of its exact bytes.
    package static func payloadSignature(_ body: String, secret: String = "sandbox_secret") -> String {
        Hex.lowercase(HMACSHA256.authenticationCode(for: Array(body.utf8), key: HMACSHA256.Key(secret)))
    }

    /// A notification's `control`: uppercase hex HMAC-SHA256 of "Be4" + external id + "Bo7".
    package static func control(externalID: String, secret: String = "sandbox_secret") -> String {
        Hex.uppercase(HMACSHA256.authenticationCode(for: "Be4" + externalID + "Bo7", key: secret))
    }
}
