public import CashoutSandbox
import Foundation
import SandboxBank
import SandboxD24
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension Sandbox {
    /// The `Payload-Signature` of a body: lowercase hex HMAC-SHA256 of its exact bytes with the
    /// merchant's secret (the default merchant's unless told).
    ///
    /// - Parameters:
    ///   - body: The body's exact bytes, as sent.
    ///   - merchant: The merchant's login; the default merchant's (`sandbox_login`) by default.
    /// - Returns: The signature: 64 lowercase hex digits.
    /// - Throws: ``CashoutSandboxTesting/UnknownMerchant`` for a login this sandbox has no D24 merchant of.
    public func signature(for body: some Collection<UInt8>, merchant: String = Sandbox.defaultMerchantLogin) throws(UnknownMerchant) -> String {
        Sandbox.signature(for: body, secret: try account(merchant).secret)
    }

    /// The `Payload-Signature` of a body signed with `secret`.
    ///
    /// - Parameters:
    ///   - body: The body's exact bytes, as sent.
    ///   - secret: The merchant's secret (`sandbox_secret` for the default merchant).
    /// - Returns: The signature: 64 lowercase hex digits.
    public static func signature(for body: some Collection<UInt8>, secret: String) -> String {
        D24Signature.payload(of: body, secret: secret)
    }

    /// A signed D24 request to this sandbox: `fields` plus the merchant's `login` and `pass` as the
    /// JSON body, and its `Payload-Signature`, e.g.
    /// `sandbox.signedRequest("POST", "/v3/cashout", ["external_id": "order-1", ...])`.
    ///
    /// - Parameters:
    ///   - method: The HTTP method: `"POST"`, `"GET"`...
    ///   - path: The path, resolved against `baseURL`: `"/v3/cashout"`.
    ///   - fields: The body's fields, as JSON values (strings, numbers, booleans, arrays, dictionaries); the merchant's `login` and `pass`
    ///     replace any given.
    ///   - merchant: The merchant's login; the default merchant's (`sandbox_login`) by default.
    /// - Returns: The request: its URL, method, JSON body (keys sorted), `Content-Type` and `Payload-Signature`.
    /// - Throws: ``CashoutSandboxTesting/UnknownMerchant`` for a login this sandbox has no D24 merchant of; ``CashoutSandboxTesting/InvalidRequest``
    ///   when a field is not a JSON value or `path` is not a URL path.
    public func signedRequest(_ method: String, _ path: String, _ fields: [String: any Sendable],
                              merchant: String = Sandbox.defaultMerchantLogin) throws -> URLRequest {
        let account = try account(merchant)
        var body = fields
        body["login"] = account.login
        body["pass"] = account.pass
        guard JSONSerialization.isValidJSONObject(body), let url = URL(string: path, relativeTo: baseURL) else {
            throw InvalidRequest(description: "\(method) \(path): the fields must be JSON values (strings, numbers, "
                                 + "booleans, arrays, dictionaries) and the path a URL path")
        }
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        var request = URLRequest(url: url.absoluteURL)
        request.httpMethod = method
        request.httpBody = data
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(Sandbox.signature(for: data, secret: account.secret), forHTTPHeaderField: "Payload-Signature")
        return request
    }

    private func account(_ login: String) throws(UnknownMerchant) -> D24Merchant {
        guard let merchant = d24Merchant(login) else { throw UnknownMerchant(login: login) }
        return merchant
    }
}

/// A merchant login this sandbox does not have (a typo would otherwise sign as someone else).
public struct UnknownMerchant: Error, Equatable, CustomStringConvertible {
    /// The login asked for.
    public let login: String
    /// `no merchant "LOGIN" in this sandbox`.
    public var description: String { "no merchant \"\(login)\" in this sandbox" }
}

/// A signed request that cannot be built: fields that are not JSON, or a path that is not a URL path.
public struct InvalidRequest: Error, CustomStringConvertible {
    /// What is wrong with the fields or the path.
    public let description: String
}
