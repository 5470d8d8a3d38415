@testable import CashoutSandbox
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
import Testing

/// The built-in default bank's magic beneficiary names (the D24 guide, "Magic values").
@Suite struct MagicValueTests {
    private func create(_ sandbox: Sandbox, name: String) throws -> HTTPResponse {
        try sandbox.create(#"{"login":"sandbox_login","pass":"sandbox_pass","external_id":"m-1","country":"BR","currency":"USD","amount":"100.00","#
                           + #""document_id":"01716001340","document_type":"CPF","beneficiary_name":"\#(name)","beneficiary_lastname":"Silva","#
                           + #""bank_code":"001","bank_account":"3423422-7","bank_branch":"1234","account_type":"C"}"#)
    }

    private func advance(_ sandbox: Sandbox, _ by: String) throws {
        _ = try sandbox.admin("POST", "/sandbox/clock/advance", #"{"by":"\#(by)"}"#)
    }

    @Test(arguments: [801, 805, 808, 814])
    func rejectCodeIsDeliveredThenRejectedWithThatCode(code: Int) throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        #expect(try create(sandbox, name: "REJECT \(code)").status == 200)
        try advance(sandbox, "5s")
        expectOK(try sandbox.statusOf("1000001"), statusJSON(4, "Delivered"))
        try advance(sandbox, "10s")
        let body = try JSON.parse(try sandbox.statusOf("1000001").body)
        #expect(body["cashout_status"] == 3)
        #expect(body["rejection_code"] == .number(code))
    }

    @Test func lateReject826CompletesThenIsReturnedAnHourLaterAndRefunded() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        #expect(try create(sandbox, name: "LATE REJECT 826").status == 200)
        try advance(sandbox, "15s")
        expectOK(try sandbox.statusOf("1000001"), #"{"bank_reference_id":"E2E-SANDBOX","cashout_status":1,"cashout_status_description":"Completed"}"#)
        try advance(sandbox, "1h")
        expectOK(try sandbox.statusOf("1000001"),
                 #"{"bank_reference_id":"E2E-SANDBOX","cashout_status":3,"cashout_status_description":"Rejected","rejection_code":826,"#
                 + #""rejection_reason":"WITHDRAWAL_REVERSED"}"#)
        let merchants = try sandbox.admin("GET", "/sandbox/merchants")
        #expect(merchants["merchants"]?[0]?["balance"] == "1000000.00")
    }

    @Test func kycNamesAreDeclinedWith504AndTheirReason() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let response = try create(sandbox, name: "KYC 105")
        #expect(response.status == 400)
        #expect(response.bodyText == #"{"code":504,"message":"User unauthorized due to cadastral situation.","reason":"Underage user detected","#
                                     + #""reason_code":105}"#)
        #expect(try create(sandbox, name: "KYC 101").bodyText.contains(#""reason_code":101"#))
        expectError(try sandbox.statusOf("1000001"), 509, "Cashout not found with this ID")  // declined: nothing stored
    }

    @Test func stuckStaysDeliveredAndNeverStaysPending() throws {
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        #expect(try create(sandbox, name: "STUCK").status == 200)
        try advance(sandbox, "30d")
        expectOK(try sandbox.statusOf("1000001"), statusJSON(4, "Delivered"))
    }
}
