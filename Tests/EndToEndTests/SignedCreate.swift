import TestHelpers
@testable import SandboxWire

/// A signed `POST /v3/cashout` for the default merchant, as an integration sends it.
enum SignedCreate {
    /// The body of a BR cashout with `externalID`: 100.00 BRL for the default merchant unless told otherwise.
    static func body(externalID: String, notificationURL: String? = nil, login: String = "sandbox_login", pass: String = "sandbox_pass",
                     currency: String = "BRL", amount: String = "100.00", name: String = "Ana") -> String {
        var body = #"{"login":"\#(login)","pass":"\#(pass)","external_id":"\#(externalID)","country":"BR","currency":"\#(currency)","#
            + #""amount":"\#(amount)","document_id":"01716001340","document_type":"CPF","beneficiary_name":"\#(name)","#
            + #""beneficiary_lastname":"Silva","bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C""#
        if let notificationURL { body += #","notification_url":"\#(notificationURL)""# }
        return body + "}"
    }

    /// The `Payload-Signature` of `body`: lowercase hex HMAC-SHA256 with the merchant's secret.
    static func signature(_ body: String, secret: String = "sandbox_secret") -> String {
        D24Signing.payloadSignature(body, secret: secret)
    }

    /// Sends the create over a new connection.
    static func send(to url: some StringProtocol, externalID: String, notificationURL: String? = nil) throws -> HTTPResponse {
        let body = body(externalID: externalID, notificationURL: notificationURL)
        return try TestHTTP.send(method: "POST", url: url + "/v3/cashout",
                                 headers: ["Content-Type": "application/json", "Payload-Signature": signature(body)],
                                 body: Array(body.utf8))
    }

    /// The same create as raw HTTP/1.1 bytes for a keep-alive connection.
    static func request(externalID: String) -> [UInt8] {
        let body = body(externalID: externalID)
        return Array(("POST /v3/cashout HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            + "Payload-Signature: \(signature(body))\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)").utf8)
    }
}
