import CashoutSandbox
import SandboxBank
import SandboxContract

// `expect_cashout`'s `decided_by`: what decided a cashout's fate, as the admin API shows it.

extension ScenarioRunner {
    /// What is wrong with what decided `payout`'s fate, named `ref`; nil when `expected` holds. A
    /// rule's name, index or outcome holds only when a rule or a magic value decided.
    func check(decidedBy expected: DecidedByExpectation, of payout: Payout, ref: String) -> String? {
        let decided = sandbox.decidedBy(payout)
        let byRule = decided.kind == .rule || decided.kind == .magicValue
        let holds = (expected.kind.map { $0 == decided.kind } ?? true)
            && (expected.rule.map { byRule && $0.matches(decided.timeline.rule) } ?? true)
            && (expected.index.map { byRule && $0 == decided.timeline.index } ?? true)
            && (expected.outcome.map { byRule && $0 == decided.timeline.outcome } ?? true)
        return holds ? nil : "expect_cashout \(ref): expected decided_by \(Self.describe(expected)), got \(decided.summary)"
    }

    /// `rule "REJECT 801"`, `kind default`, `rule "split", outcomes[1]`...
    static func describe(_ expected: DecidedByExpectation) -> String {
        var parts: [String] = []
        if let kind = expected.kind { parts.append("kind \(kind.rawValue)") }
        if let rule = expected.rule {
            parts.append("rule " + (rule.exactText.map { "\"\($0)\"" } ?? describe(rule)))
        }
        if let index = expected.index { parts.append("bank.rules[\(index)]") }
        if let outcome = expected.outcome { parts.append("outcomes[\(outcome)]") }
        return parts.joined(separator: ", ")
    }
}
