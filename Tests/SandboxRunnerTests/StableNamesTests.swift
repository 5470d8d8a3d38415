@testable import CashoutSandbox
@testable import SandboxRunner
import TestHelpers
import Testing
@testable import SandboxContract
@testable import SandboxWire

/// What `explore` prints names each cashout by what it is (`Explorer.StableNames`), not by its id,
/// which counts creates as they come: the same run gives the same lines whatever order an app's
/// workers sent in.
@Suite struct StableNamesTests {
    /// Three of 100.00: Ana twice (the 1st and 2nd of that content), Bo once. No reference, and no
    /// number that is no cashout of the run, changes.
    @Test func eachCashoutIdIsItsNameAndNothingElseChanges() throws {
        let sandbox = try ManualSandbox.launch(nil)
        defer { sandbox.stop() }
        for (reference, name) in [("order-1000002", "Ana"), ("again", "Ana"), ("bo", "Bo")] {
            #expect(try ManualSandbox.create(sandbox, reference, name: name).status == 200)
        }
        let names = Explorer.StableNames(sandbox, ruleFields: Sandbox.standardVocabulary.ruleFields)
        #expect(names.apply(#"the app believes cashout 1000002 (external_id "order-1000002") is PENDING; cashouts 1000001, 1000003 at 1000004"#)
                == #"the app believes cashout [beneficiary_name Ana, occurrence 2] (external_id "order-1000002") is PENDING; "#
                + "cashouts [beneficiary_name Ana, occurrence 1], [beneficiary_name Bo] at 1000004")
    }
}
