import CashoutSandbox
import SandboxReport

// Reconciliation in a suite (the Scenario files guide, "The app's ledger"): the `expect_reconciled`
// step, and the reconciliation after the last step when the file names `app.ledger`.

extension ScenarioRunner {
    /// The app's ledger at `location` reconciled with the bank (of `account` alone when given):
    /// nil when they agree, else what failed, `action` first.
    func reconcile(_ location: String, account: String?, action: String) -> String? {
        if let account, sandbox.bank.account(id: account) == nil { return "\(action): no account \"\(account)\"" }
        switch sandbox.reconcile(ledgerAt: location, account: account) {
        case .failure(let problem):
            return "\(action): \(problem.message)"
        case .success(let reconciliation):
            guard !reconciliation.mismatches.isEmpty else { return nil }
            return "\(action): ledger_mismatch: \(reconciliation.summary)"
        }
    }
}
