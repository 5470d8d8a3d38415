package import CashoutSandbox
import SandboxBank
package import SandboxWire

/// A sandbox as the state, snapshot and admin suites start it: on a manual clock at
/// 2026-01-05T09:00:00Z, with a state folder or none; requests to it, and a signed D24 create for
/// the default merchant whose notifications go to the built-in sink `shop` (or to `url`).
package enum ManualSandbox {
    package static func launch(_ directory: String?, change: (inout Sandbox.Configuration) -> Void = { _ in }) throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.stateDirectory = directory
        change(&configuration)
        return try Sandbox.launch(configuration)
    }

    /// `body` sent to `path`; `signed` adds D24's `Payload-Signature` with the default merchant's secret.
    package static func send(_ sandbox: Sandbox, _ method: String, _ path: String, _ body: String = "",
                             signed: Bool = false) throws -> HTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if signed { headers.add("Payload-Signature", D24Signing.payloadSignature(body)) }
        return try TestHTTP.send(method: method, url: "\(sandbox.baseURL)\(path)", headers: headers, body: Array(body.utf8))
    }

    package static func create(_ sandbox: Sandbox, _ externalID: String, name: String = "Ana", url: String? = nil) throws -> HTTPResponse {
        try send(sandbox, "POST", "/v3/cashout",
                 #"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"\#(externalID)","country":"BR","currency":"BRL","#
                 + #""amount":"100.00","document_id":"01716001340","document_type":"CPF","beneficiary_name":"\#(name)","#
                 + #""beneficiary_lastname":"Silva","bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C","#
                 + #""notification_url":"\#(url ?? "\(sandbox.baseURL)/sandbox/sink/shop")"}"#,
                 signed: true)
    }
}
