@testable import SandboxD24
@testable import CashoutSandbox
@testable import SandboxWire
import TestHelpers
@testable import SandboxSupport
import Testing

// The D24 guide's "Codes": every rejection code the sandbox names, with the name a started sandbox
// answers; every decline code with a message of its own, with the status and message it answers.

@Suite struct CodesTableTests {
    static let rows = Guide.rows(in: "D24", under: "Codes")
    static let rejections = rows.filter { $0.count == 3 && $0[1].hasPrefix("`") }
    static let declines = rows.filter { $0.count == 3 && !$0[1].hasPrefix("`") }

    @Test func everyRejectionNameIsInTheTableAndIsWhatTheStatusAnswers() throws {
        #expect(Self.rejections.map { Int($0[0]) } == D24RejectionCodes.names.keys.sorted())
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        for (index, row) in Self.rejections.enumerated() {
            let id = try sandbox.createOK(externalID: "r-\(index)")
            try sandbox.force(id, #"{"action":"reject","rejection_code":\#(row[0])}"#)
            let status = try JSON.parse(try sandbox.statusOf(id).body)
            #expect(status["rejection_reason"]?.stringValue.map { "`\($0)`" } == row[1], "\(row)")
        }
    }

    @Test func everyDeclineCodeAnswersItsStatusAndMessage() throws {
        #expect(Self.declines.map { Int($0[0]) } == D24Error.standardMessages.keys.sorted())
        let sandbox = try startSandbox()
        defer { sandbox.stop() }
        let rules = Self.declines.map { #"{"when": {"external_id": "d-\#($0[0])"}, "decline": {"code": \#($0[0])}}"# }
        try sandbox.admin("POST", "/sandbox/scenario", #"{"bank": {"rules": [\#(rules.joined(separator: ","))]}}"#)
        for row in Self.declines {
            let response = try sandbox.create(createBody(externalID: "d-\(row[0])"))
            #expect(response.status == Int(row[1]), "\(row)")
            #expect(response.bodyText == errorJSON(Int(row[0])!, row[2]), "\(row)")
        }
    }
}
