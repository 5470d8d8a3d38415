package import SandboxContract
package import SandboxBank
package import SandboxSupport

// The integration report of a sandbox (`GET /sandbox/report`, `Sandbox.integrationReport`): the
// request log read by each request's dialect (`RequestLog.facts`, `KeptFacts`), the accounts' payouts
// and their notifications to the app, and each account's dialect's checks.

extension IntegrationReport {
    /// The report of every account that made a request or has a payout, or of `account` alone,
    /// from the notifications to the app (not to the sandbox's own sinks, which `sender` tells);
    /// `Unknowable` when the request log pushed requests out since it was last cleared (the
    /// report would be made from part of the evidence). Its checks judge by `thresholds`.
    static func make(bank: Bank, requestLog: RequestLog, sender: WebhookSender, dialects: [String: any Dialect],
                     account only: String? = nil, thresholds: ReportThresholds, reconciliation: Reconciliation? = nil,
                     at now: VirtualTime) -> Result<IntegrationReport, Unknowable> {
        let (entries, lost) = requestLog.all()
        guard lost == 0, requestLog.capacity > 0 else { return .failure(Unknowable(lost: lost, capacity: requestLog.capacity)) }
        struct Key: Hashable { let dialect: String, account: String }
        let reporting = dialects.compactMapValues { $0.asReportingDialect }  // asked once, not per request
        var requests: [Key: [ReportedRequest]] = [:]
        for entry in entries {
            guard let name = entry.dialect, let dialect = reporting[name] else { continue }
            guard let facts = requestLog.facts(entry, api: dialect, bank: bank) else { continue }
            let account = facts.account ?? ""
            guard only.map({ $0 == account }) ?? true else { continue }
            requests[Key(dialect: name, account: account), default: []]
                .append(ReportedRequest(id: entry.id, at: entry.at, receivedAt: entry.receivedAt,
                                        exchange: requestLog.exchange(entry, bodies: false), facts: facts))
        }
        let payouts = Dictionary(grouping: bank.payouts(account: only)) { Key(dialect: $0.dialect, account: $0.account) }
        var notifications: [Int: [StatusNotification]] = [:]
        bank.forEachNotification { notification in
            guard payouts[Key(dialect: notification.dialect, account: notification.account)] != nil else { return }
            notifications[notification.payoutID, default: []].append(notification)
        }
        // The built-in sink is the sandbox's own receiver, not the app's. (Asked outside the
        // bank's lock, which `forEachNotification` holds.)
        notifications = notifications.mapValues { $0.filter { !($0.url.map(sender.isOwnSink) ?? false) } }
        var keys = Set(requests.keys).union(payouts.keys)
        if let only, let known = bank.account(id: only) { keys.insert(Key(dialect: known.dialect, account: only)) }
        let sorted = keys.sorted { ($0.dialect, $0.account) < ($1.dialect, $1.account) }
        let accounts = sorted.compactMap { key -> (AccountEvidence, [IntegrationCheck])? in
            guard let dialect = dialects[key.dialect] else { return nil }
            let payouts = payouts[key] ?? []
            var evidence = AccountEvidence(
                account: key.account, dialect: key.dialect, known: bank.account(id: key.account)?.dialect == key.dialect,
                requests: requests[key] ?? [], payouts: payouts, notifications: payouts.flatMap { notifications[$0.id] ?? [] },
                now: now, statusWord: { dialect.statusWord($0) ?? $0.name })
            evidence.ledgerMismatches = reconciliation?.occurrences(dialect: key.dialect, account: key.account)
            return (evidence, reporting[key.dialect]?.integrationChecks(thresholds) ?? [])
        }
        return .success(IntegrationReport(accounts: accounts, at: now, thresholds: thresholds))
    }

    /// The request log pushed out requests the report would need.
    struct Unknowable: Error {
        let lost: Int
        let capacity: Int

        package var message: String {
            guard capacity > 0 else { return "the request journal is off (--request-journal 0): the report has no requests to read" }
            return "the request journal pushed out \(lost) request\(lost == 1 ? "" : "s") (it keeps \(capacity)): a report now would miss their "
                + "evidence; start the sandbox with a larger --request-journal, or DELETE /sandbox/requests before the run"
        }
    }
}

extension IntegrationReport {
    static func answer(bank: Bank, requestLog: RequestLog, sender: WebhookSender, dialects: [String: any Dialect],
                       account: String?, thresholds: ReportThresholds, reconciliation: Reconciliation? = nil,
                       at now: VirtualTime) -> (status: Int, json: JSON) {
        switch make(bank: bank, requestLog: requestLog, sender: sender, dialects: dialects, account: account, thresholds: thresholds,
                    reconciliation: reconciliation, at: now) {
        case .failure(let unknowable):
            return (409, ["ok": false, "unknowable": true, "message": .string(unknowable.message)])
        case .success(let report):
            if let account, report.accounts.isEmpty {
                return (404, ["code": 404, "message": .string(AdminMessage.noReportAccount(account))])
            }
            return (200, report.json)
        }
    }
}

extension ReportCache {
    /// `Sandbox.reconcile(ledger:source:account:)` of the sandbox made of these parts (the admin API's): compares `ledger`
    /// (read from `source`) with `bank`'s payouts, of `account` alone when given, and keeps the reconciliation for the report.
    package func reconcile(ledger: JSON, source: String, account: String?, bank: Bank, requestLog: RequestLog, sender: WebhookSender,
                           dialects: [String: any Dialect]) -> Result<Reconciliation, Reconciliation.Problem> {
        let terms = dialects.compactMapValues { $0.asReportingDialect?.ledgerTerms }
        var words: [String: @Sendable (PayoutStatus) -> String] = [:]
        for (name, dialect) in dialects where terms[name] != nil { words[name] = { dialect.statusWord($0) ?? $0.name } }
        // What the report's findings explain of a mismatch (a create made again after its answer was lost), judged without a ledger.
        let report = try? IntegrationReport.make(bank: bank, requestLog: requestLog, sender: sender, dialects: dialects, account: account,
                                                 thresholds: thresholds, at: bank.clock.now).get()
        let outcome = Reconciliation.make(ledger: ledger, source: source, payouts: bank.payouts(account: account), terms: terms,
                                          statusWords: words, account: account,
                                          explanations: report.map(IntegrationChecks.lostAnswerExplanations) ?? [:], at: bank.clock.now)
        if case .success(let reconciliation) = outcome { keep(reconciliation) }
        return outcome
    }
}
