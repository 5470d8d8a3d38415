package import SandboxSupport

/// D24's two signatures, written once for the endpoints, the notifications, the CLI, the runner
/// and the testing library (D24's page "Notifications"):
/// - `Payload-Signature`: lowercase hex HMAC-SHA256 of the request body's exact bytes, keyed with
///   the merchant's API signature (its secret);
/// - a notification's `control`: uppercase hex HMAC-SHA256 of `"Be4" + external_id + "Bo7"`.
package enum D24Signature {
    /// The `Payload-Signature` of `body`.
    package static func payload(of body: some Collection<UInt8>, secret: String) -> String {
        payload(of: body, key: HMACSHA256.Key(secret))
    }

    /// The `Payload-Signature` of `body`, with the secret already prepared as a key.
    package static func payload(of body: some Collection<UInt8>, key: HMACSHA256.Key) -> String {
        Hex.lowercase(HMACSHA256.authenticationCode(for: body, key: key))
    }

    /// The `control` of a notification of `externalID`.
    package static func control(externalID: String, key: HMACSHA256.Key) -> String {
        Hex.uppercase(HMACSHA256.authenticationCode(for: "Be4" + externalID + "Bo7", key: key))
    }
}
