import CashoutSandbox
import SandboxBank
import SandboxSupport
import SandboxContract

// What `explore` prints of a failing run (the Testing your app guide, "Exploring"): the same, line
// for line, whenever the run is made again with the same seed. A cashout's id counts creates as they
// come, so an app whose workers send creates at once gives the same cashout another id in each run:
// the lines name each cashout as the pinned rules do, by what it is.

extension Explorer {
    /// A run's cashouts by what they are (`PayoutNames`): `cashout 1000007` is `cashout [amount 104.00]`,
    /// `cashout [amount 105.00, occurrence 2]` the second of that content.
    struct StableNames: Sendable {
        private let names: [Int: String]

        package init(_ sandbox: Sandbox, ruleFields: Set<String>) {
            let payouts = sandbox.bank.payouts()
            let namer = PayoutNames(payouts, ruleFields: ruleFields)
            names = Dictionary(uniqueKeysWithValues: payouts.map { ($0.id, "[\(PayoutNames.describe(namer.when($0)))]") })
        }

        /// The cashout's name (`[amount 104.00]`), nil for one the run did not make.
        package func name(of id: Int) -> String? { names[id] }

        /// `text` with each cashout id of the run (a whole number, not part of a word or a
        /// reference such as `order-1000001`) replaced by the cashout's name.
        func apply(_ text: String) -> String {
            var named = ""
            var digits = ""
            var before: Character?
            func flush() {
                let joined = before.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } ?? false
                named += (!joined ? Int(digits).flatMap { names[$0] } : nil) ?? digits
                digits = ""
            }
            for character in text {
                if character.isASCII && character.isNumber {
                    digits.append(character)
                    continue
                }
                if !digits.isEmpty {
                    if character.isLetter || character == "_" || character == "-" { named += digits; digits = "" } else { flush() }
                }
                named.append(character)
                before = character
            }
            if !digits.isEmpty { flush() }
            return named
        }
    }

    /// The lines a failing run prints: what failed (each step, the ledger read after the steps: the
    /// first line of each, without a ledger's mismatches), then each finding of severity error on a
    /// line of its own (`late_rejection_missed (sandbox_login): ...`, the ledger's mismatches among
    /// them), sorted; every cashout named by what it is.
    static func failureLines(_ result: ScenarioResult, findings: [(id: String, account: String, occurrence: String)],
                             names: StableNames?) -> [String] {
        func head(_ message: String) -> String {
            let first = message.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? message
            let mismatches = ": ledger_mismatch: "
            let cut = first.firstRange(of: mismatches).map { String(first[..<$0.lowerBound]) + ": ledger_mismatch" } ?? first
            return names?.apply(cut) ?? cut
        }
        return result.failureTexts.map(head) + findings.map { "\($0.id) (\($0.account)): \(names?.apply($0.occurrence) ?? $0.occurrence)" }.sorted()
    }
}
