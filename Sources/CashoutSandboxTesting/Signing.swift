import CashoutSandbox
import Foundation
import SandboxBank
import SandboxCrypto
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Sandbox {
    /// The `Payload-Signature` of a body: lowercase hex HMAC-SHA256 of its exact bytes with the
    /// merchant's secret (the default merchant's unless told).
    public func signature(for body: some Collection<UInt8>, merchant: String = Merchant.sandboxDefault.login) -> String {
        Sandbox.signature(for: body, secret: bank.merchant(login: merchant)?.secret ?? "")
    }

    /// The `Payload-Signature` of a body signed with `secret`.
    public static func signature(for body: some Collection<UInt8>, secret: String) -> String {
        Hex.lowercase(HMACSHA256.authenticationCode(for: Array(body), key: HMACSHA256.Key(secret)))
    }

    /// A signed D24 request to this sandbox: `fields` plus the merchant's `login` and `pass` as the
    /// JSON body, and its `Payload-Signature`, e.g.
    /// `sandbox.signedRequest("POST", "/v3/cashout", ["external_id": "order-1", ...])`.
    public func signedRequest(_ method: String, _ path: String, _ fields: [String: Any & Sendable],
                              merchant: String = Merchant.sandboxDefault.login) throws -> URLRequest {
        let account = bank.merchant(login: merchant) ?? defaultMerchant
        var body = fields
        body["login"] = account.login
        body["pass"] = account.pass
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.httpBody = data
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(Sandbox.signature(for: data, secret: account.secret), forHTTPHeaderField: "Payload-Signature")
        return request
    }
}
