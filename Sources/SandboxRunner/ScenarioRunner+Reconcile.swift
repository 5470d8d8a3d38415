import CashoutSandbox
import SandboxContract
import SandboxBank

// Reconciliation in a suite (the Scenario files guide, "The app's ledger"): the `expect_reconciled`
// step, and the reconciliation after the last step when the file names `app.ledger`.

extension ScenarioRunner {
    /// What comparing the app's ledger with the bank came to.
    enum LedgerOutcome: Equatable {
        /// They agree, on this many of the ledger's entries.
        case agreed(Int)
        /// Nothing answered where the ledger was to be read: the app serves none (not a failure;
        /// `ledger_mismatch` stays not exercised). The problem, in a sentence.
        case notServed(String)
        /// They disagree (`ledger_mismatch`), or the ledger could not be read (`unreadable`): what
        /// failed, `action` first.
        case failed(String, unreadable: Bool)
    }

    /// The app's ledger at `location` reconciled with the bank (of `account` alone when given).
    func reconcile(_ location: String, account: String?, action: String) -> LedgerOutcome {
        if let account, sandbox.bank.account(id: account) == nil { return .failed("\(action): no account \"\(account)\"", unreadable: false) }
        switch sandbox.reconcile(read: answers.ledger(at: location), from: location, account: account) {
        case .failure(let problem) where problem.unserved:
            return .notServed("ledger not checked: \(problem.message)")
        case .failure(let problem):
            return .failed("\(action): \(problem.message)", unreadable: true)
        case .success(let reconciliation):
            guard !reconciliation.mismatches.isEmpty else { return .agreed(reconciliation.entries) }
            return .failed("\(action): ledger_mismatch: \(reconciliation.summary)", unreadable: false)
        }
    }

    /// The last reconciliation's mismatches, each a problem on the cashouts it concerns: `action: ledger_mismatch: ...`.
    func mismatches(action: String) -> Judgement {
        let mismatches = sandbox.reports.reconciliation.last?.mismatches ?? []
        return Judgement(problems: mismatches.map { mismatch in
            Judgement.Problem(check: nil, cashouts: mismatch.occurrence.cashouts, text: "\(action): ledger_mismatch: \(mismatch.occurrence.summary)")
        })
    }
}
