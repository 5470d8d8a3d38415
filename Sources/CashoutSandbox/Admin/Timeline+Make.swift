import SandboxBank
package import SandboxContract
import SandboxWire
import SandboxSupport

// A payout's timeline made from what the sandbox already keeps (the Testing your app guide, "Why a
// run failed"): the request log (the requests about it: those that name it, made it, list it, or a
// create of the same content that made no other payout: a retry), the bank's status history and
// notifications, the recorder's real times and clock stops, and the last reconciliation of the app's
// ledger. Nothing here runs on a request's path: it is made when asked for.

extension Timeline {
    /// What a timeline is made from.
    struct Sources {
        let bank: Bank
        let requestLog: RequestLog
        let dialects: [String: any Dialect]
        let recorder: TimelineRecorder
        let reconciliation: Reconciliation?

        init(bank: Bank, requestLog: RequestLog, dialects: [String: any Dialect], recorder: TimelineRecorder,
                     reconciliation: Reconciliation?) {
            self.bank = bank
            self.requestLog = requestLog
            self.dialects = dialects
            self.recorder = recorder
            self.reconciliation = reconciliation
        }
    }

    /// The timeline of the payouts `ids` (those the bank has), with `findings` judged at `judged`
    /// (virtual and wall-clock time; nil: not judged, as the admin API's timeline of a cashout).
    static func make(of ids: [Int], title: String, from sources: Sources, findings: [Finding],
                             judged: (at: VirtualTime, real: Int64)? = nil) -> Timeline {
        let payouts = ids.compactMap { sources.bank.payout(id: $0) }
        var entries: [Entry] = []
        for payout in payouts {
            entries += statusEntries(payout, sources) + notificationEntries(payout, sources)
        }
        entries += requestEntries(payouts, sources) + stopEntries(payouts, sources) + ledgerEntries(payouts, sources)
        if let judged {
            for finding in findings {
                let named = finding.cashouts.filter { id in payouts.contains { $0.id == id } }
                entries.append(Entry(.finding, at: judged.at, real: judged.real, from: .api, text: "judged \(finding.id): \(finding.text)",
                                     cashouts: named.isEmpty ? payouts.map(\.id) : named))
            }
        }
        // In time: virtual, then the app's turn (requests and deliveries take one as they begin; a change or a stop
        // happens in the last one given; the ledger read and the judgement come last), then a request before the change
        // it made in its turn; then real time, then as made.
        func rank(_ kind: Kind) -> Int { [Kind.request, .status, .notification, .clockStop, .ledger, .finding].firstIndex(of: kind) ?? 0 }
        func key(_ entry: Entry) -> (Int64, Int, Int, Int64) { (entry.at.milliseconds, entry.turn ?? .max, rank(entry.kind), entry.real ?? 0) }
        let ordered = entries.enumerated().sorted { a, b in
            let (x, y) = (key(a.element), key(b.element))
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
        let cashouts = payouts.map { payout in
            Cashout(id: payout.id, name: nil, api: payout.dialect, account: payout.account, reference: payout.reference,
                    amount: payout.amount.description, currency: payout.currency, status: word(payout.status, of: payout, sources))
        }
        return Timeline(title: title, started: sources.recorder.started, findings: findings, cashouts: cashouts, entries: ordered)
    }

    /// The API's word for a status, with the sandbox's beside it when they differ (`completed (COMPLETED)`).
    private static func word(_ status: PayoutStatus, of payout: Payout, _ sources: Sources) -> String {
        let name = status == .returned ? "REJECTED (reversed after it completed)" : status.name
        guard let word = sources.dialects[payout.dialect]?.statusWord(status), word != status.name else { return name }
        return "\(word) (\(name))"
    }

    private static func statusEntries(_ payout: Payout, _ sources: Sources) -> [Entry] {
        var before: PayoutStatus?
        return payout.history.enumerated().map { index, change in
            defer { before = change.status }
            var text = before.map { "\(word($0, of: payout, sources)) → \(word(change.status, of: payout, sources))" }
                ?? "created \(word(change.status, of: payout, sources))"
            if index > 0, change.by != "bank" { text += " by the \(change.by)" }
            if let code = change.reasonCode { text += ", code \(code)" + (change.reason.map { ": \($0)" } ?? "") }
            let moment = sources.recorder.moment(of: .change(payout: payout.id, index: index))
            var entry = Entry(.status, at: change.at, real: moment?.real, from: .bank, text: text, cashouts: [payout.id])
            entry.turn = moment?.turn
            return entry
        }
    }

    private static func notificationEntries(_ payout: Payout, _ sources: Sources) -> [Entry] {
        sources.bank.notifications(payoutID: payout.id).flatMap { notification in
            notification.attempts.map { attempt in
                let outcome = attempt.outcome
                let answer = outcome.status.map(String.init) ?? "no answer" + (outcome.error.map { " (\($0))" } ?? "")
                var what = "notification \(word(notification.status, of: payout, sources))"
                if attempt.chaos == nil, attempt.number > 1 { what += attempt.manual ? " (sent again by hand)" : " (attempt \(attempt.number))" }
                // When it went out; else when it was answered.
                let moment = sources.recorder.moment(of: .sent(notification: notification.id, number: attempt.number))
                    ?? sources.recorder.moment(of: .attempt(notification: notification.id, number: attempt.number))
                var entry = Entry(.notification, at: attempt.at, real: moment?.real,
                                  from: .api, to: .app, text: "\(what): \(answer)" + (attempt.chaos.map { " (injected: \($0.summary))" } ?? ""),
                                  cashouts: [payout.id])
                entry.injected = attempt.chaos != nil
                entry.turn = moment?.turn
                entry.details = [("to", notification.url ?? "no URL"), ("answer", answer + (outcome.body.map { "\n\n\($0)" } ?? ""))]
                return entry
            }
        }
    }

    /// The app's requests about `payouts` (a suite's own steps' say so).
    private static func requestEntries(_ payouts: [Payout], _ sources: Sources) -> [Entry] {
        let log = sources.requestLog
        let ids = Set(payouts.map(\.id))
        let logged = log.all().entries.compactMap { entry -> (RequestLog.Entry, RequestFacts, String)? in
            guard let dialect = entry.dialect.flatMap({ sources.dialects[$0]?.asReportingDialect }),
                  let facts = log.facts(entry, api: dialect, bank: sources.bank) else { return nil }
            // A gRPC method by its name (`Get`), an HTTP route as it is (`POST /v3/cashout/status`).
            let name = entry.route.flatMap { dialect.operation(route: $0)?.grpcMethod } ?? entry.route
                ?? "\(entry.request.method) \(entry.request.path)"
            return (entry, facts, name)
        }
        // The payout each create made, and the content of those that made one of `payouts`.
        func made(_ facts: RequestFacts) -> Int? {
            guard case .create = facts.action else { return nil }
            return facts.payout(in: sources.bank)?.id
        }
        func content(_ entry: RequestLog.Entry, _ facts: RequestFacts) -> String? {
            guard case .create(let beneficiary, let amount) = facts.action else { return nil }
            return "\(entry.dialect ?? "") \(facts.account ?? "") \(beneficiary) \(amount)"
        }
        var contents: [String: Set<Int>] = [:]
        for (entry, facts, _) in logged {
            if let id = made(facts), ids.contains(id), let key = content(entry, facts) { contents[key, default: []].insert(id) }
        }
        return logged.flatMap { entry, facts, name -> [Entry] in
            var about = Set(facts.listed).intersection(ids)
            if let id = facts.payoutID ?? made(facts), ids.contains(id) { about.insert(id) }
            if let reference = facts.reference, let account = facts.account {
                about.formUnion(payouts.filter { $0.reference == reference && $0.account == account }.map(\.id))
            }
            // A listing a fault answered (a poller's read of Mannco's history): about each payout of its account it would have shown.
            if entry.response.fault != nil, facts.isListing, let dialect = entry.dialect {
                about.formUnion(facts.listable(in: sources.bank, dialect: dialect, at: entry.at).map(\.id).filter(ids.contains))
            }
            // A create of the same content that made no payout: the app's try before (or retry of) the one that did.
            if about.isEmpty, made(facts) == nil, let key = content(entry, facts), let same = contents[key] { about = same }
            guard !about.isEmpty else { return [] }
            // A listing says something else of each payout it shows: an entry each.
            guard !facts.listedWords.isEmpty else {
                return [requestEntry(entry, named: name, about: about.sorted(), words: facts.answerWords, log: log)]
            }
            return about.sorted().map { requestEntry(entry, named: name, about: [$0], words: facts.listedWords[$0], log: log) }
        }
    }

    /// `POST /v3/cashout/status: 200 Delivered`, `Get: OK SUCCESS`: the request, its answer's status and `words`, what the
    /// answer said in the API's words (``SandboxContract/RequestFacts/answerWords``).
    private static func requestEntry(_ entry: RequestLog.Entry, named name: String, about: [Int], words: String?, log: RequestLog) -> Entry {
        let response = entry.response
        var answer: String
        if let fault = response.fault {
            answer = fault.kind.timelineWords(response.faultAnswer(fault))
        } else if response.isDroppedConnection {
            answer = "no answer (the connection was closed)"
        } else {
            answer = response.grpcStatus?.name ?? String(response.status)
        }
        if response.fault == nil, let words, !words.isEmpty { answer += " " + String(words.prefix(40)) }
        let suite = entry.request.headers["User-Agent"] == HTTPClient.userAgent
        var timelineEntry = Entry(.request, at: entry.at, real: entry.receivedAt, from: .app, to: .api,
                                  text: (suite ? "the suite's step: " : "") + "\(name): \(answer)", cashouts: about)
        timelineEntry.injected = response.fault != nil
        timelineEntry.turn = entry.turn
        let shown = log.json(entry)
        func body(_ json: JSON?) -> String {
            guard let text = json?["body"]?.stringValue, !text.isEmpty else { return "" }
            return "\n\n" + text
        }
        timelineEntry.details = [("request", "\(entry.request.method) \(entry.request.path)\(body(shown))"),
                                 ("answer", "\(answer)\(body(shown["response"]))")]
        return timelineEntry
    }

    /// The clock's stops about `payouts`, and the stops for the app as a whole that its quiet limit ended, in the payouts' life.
    private static func stopEntries(_ payouts: [Payout], _ sources: Sources) -> [Entry] {
        let ids = Set(payouts.map(\.id))
        let born = payouts.map(\.createdAt.milliseconds).min() ?? 0
        return sources.recorder.stops.compactMap { stop in
            let about = stop.payouts.filter(ids.contains)
            guard !about.isEmpty || (stop.payouts.isEmpty && stop.ended == .limit && stop.at.milliseconds >= born) else { return nil }
            let ending = switch stop.ended {
            case .quiet: "ended when the app had been quiet for --quiet-period"
            case .answered: "ended when the app had it"
            case .settled: "ended when the app said it was settled (app.settled)"
            case .limit: "--quiet-limit came first; the clock moved anyway"
            }
            var entry = Entry(.clockStop, at: stop.at, real: stop.began, from: .clock, text: "stopped for \(stop.waitedFor): \(ending)",
                              cashouts: about.isEmpty ? payouts.map(\.id) : about)
            entry.ended = stop.ended
            entry.lasted = stop.lasted
            entry.turn = stop.turn
            return entry
        }
    }

    /// What the app's ledger said of `payouts` when the sandbox last read it.
    private static func ledgerEntries(_ payouts: [Payout], _ sources: Sources) -> [Entry] {
        guard let reconciliation = sources.reconciliation else { return [] }
        return payouts.compactMap { payout in
            guard reconciliation.accounts.contains(payout.dialect + "/" + payout.account) else { return nil }
            let text: String
            if let said = reconciliation.said[payout.id] {
                text = said.word.lowercased() == said.bank.lowercased() ? "read the app's ledger: it says \(said.word), as the bank does"
                    : "read the app's ledger: it says \(said.word); the bank's is \(said.bank)"
                        + (said.agrees ? " (the same for the money)" : "")
            } else {
                text = "read the app's ledger: cashout \(payout.id) is not in it"
            }
            return Entry(.ledger, at: reconciliation.at, real: reconciliation.readAt, from: .api, to: .app, text: text, cashouts: [payout.id])
        }
    }
}

extension Timeline {
    /// The report's error findings, one per occurrence (each names its payouts).
    package static func errors(of report: IntegrationReport) -> [Finding] {
        report.accounts.flatMap(\.findings).filter { $0.check.severity == .error }.flatMap { finding in
            finding.occurrences.map { Finding(id: finding.id, text: $0.summary, cashouts: $0.cashouts) }
        }
    }
}
