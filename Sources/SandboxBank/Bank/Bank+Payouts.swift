import Synchronization
// Creating payouts and changing their status: the balance, the limits, the ledger, the timeline
// and the notifications all follow from here, under the one lock.

/// What a dialect's own check sees when a payout is created (`Bank.createPayout(_:admitting:)`):
/// the account and its payouts as they are under the bank's lock, so the check and the creation
/// are one step whatever the concurrency (one pending payout per account, a cooldown...).
package struct Admission {
    package let account: Account
    package let now: VirtualTime
    fileprivate let ids: [Int]
    fileprivate let table: PayoutTable

    /// The account's payouts, newest first (read as far as the check needs).
    package var payouts: some Sequence<Payout> { ids.reversed().lazy.map { table[$0]! } }

    /// The account's newest payout, if any.
    package var latest: Payout? { ids.last.map { table[$0]! } }
}

extension Bank {
    /// Creates a payout: checks (in order) the account, the reference, the dialect's own check
    /// `admit`, the scenario's declines, the currency, the minimum amount, and (when it starts
    /// pending or on hold) the limits and the balance; debits it, and starts the bank's timeline
    /// when it starts pending. A staged payout, or one awaiting details, is debited by `execute`.
    package func createPayout(_ request: PayoutRequest, admitting admit: ((Admission) -> Decline?)? = nil)
        throws(PayoutRefusal) -> Payout {
        let now = clock.now
        return try state.withLock { (s) throws(PayoutRefusal) -> Payout in
            guard let account = s.accounts[request.account], account.dialect == request.dialect else { throw .unknownAccount }
            if let reference = request.reference, s.references[account.id]?.id(of: reference, in: s.payouts) != nil { throw .duplicateReference }
            if let admit, let decline = admit(Admission(account: account, now: now, ids: s.payoutsByAccount[account.id] ?? [],
                                                         table: s.payouts)) {
                throw .declined(decline)
            }
            let content = Self.contentKey(of: request, s)  // once: the decline and the insert read it
            if let decline = s.configuration.decline(request, s.occurrences[content, default: 0] + 1) {
                throw .declined(decline)
            }
            guard let settlement = convert(request.amount, from: request.currency, to: account.currency, s.configuration.rates) else {
                throw .unsupportedCurrency
            }
            // Compared in the payout's own currency, the one the refusal names: comparing the
            // rounded conversion instead would let 58.82 BRL pass a 58.83 BRL minimum.
            if let country = request.country, let minimum = account.minimumAmounts[country],
               let local = convert(minimum, from: account.currency, to: request.currency, s.configuration.rates), request.amount < local {
                throw .belowMinimum(currency: request.currency, amount: local)
            }
            if request.status.isDebited { try checkFunds(s, account, settlement, at: now) }
            return insert(&s, request, settlement: settlement, at: now, timeline: nil, content: content)
        }
    }

    /// Executes a staged payout, or one awaiting details: with `details`, asks the scenario again
    /// whether to decline it (a rule on the recipient's name entered on a link page); checks the
    /// limits and the balance, adds `details` to it, debits it, and starts the bank's timeline as
    /// for a payout created pending. nil when there is no such payout.
    @discardableResult
    package func execute(payoutID: Int, by actor: String, adding details: PayoutDetails = PayoutDetails()) throws(PayoutRefusal) -> Payout? {
        let now = clock.now
        return try state.withLock { (s) throws(PayoutRefusal) -> Payout? in
            guard let payout = s.payouts[payoutID] else { return nil }
            guard payout.status.awaitsExecution else { throw .notExecutable(payout.status) }
            guard let account = s.accounts[payout.account] else { throw .unknownAccount }
            if !details.isEmpty, let decline = s.configuration.decline(Self.request(payout, adding: details), payout.occurrence) {
                throw .declined(decline)
            }
            try checkFunds(s, account, payout.settlementAmount, at: now)
            if !details.isEmpty { add(&s, details, to: payoutID, at: now, timeline: nil) }
            execute(&s, payoutID, by: actor, at: now)
            return s.payouts[payoutID]
        }
    }

    /// The request `payout` would be with `details`, as the scenario's rules see it.
    private static func request(_ payout: Payout, adding details: PayoutDetails) -> PayoutRequest {
        var fields = payout.fields
        for field in details.fields { fields[field.name] = field.value }
        return PayoutRequest(dialect: payout.dialect, account: payout.account, reference: payout.reference, country: payout.country,
                             currency: payout.currency, amount: payout.amount, status: payout.status,
                             callbackURL: details.callbackURL ?? payout.callbackURL, fields: fields)
    }

    /// `execute` under the lock, its checks passed (or replayed).
    func execute(_ s: inout State, _ payoutID: Int, by actor: String, at now: VirtualTime) {
        try! apply(&s, TimelineStep(after: .zero, status: .pending), to: payoutID, at: now, by: actor, executing: true)
        scheduleTimeline(&s, payoutID: payoutID, from: now)
        journal(&s, .executed(payoutID: payoutID, by: actor, at: now))
    }

    /// Adds `details` to a payout not yet started, and lets the scenario choose its timeline again
    /// now that it sees them (a rule on the recipient's name entered on a link page), unless
    /// `timeline` gives the one a journal recorded.
    func add(_ s: inout State, _ details: PayoutDetails, to payoutID: Int, at now: VirtualTime, timeline: DecidedTimeline?) {
        guard let payout = s.payouts.modify(payoutID, { (payout) -> Payout in
            var fields = payout.fields
            for field in details.fields { fields[field.name] = field.value }
            payout.fields = fields
            if let url = details.callbackURL { payout.callbackURL = url }
            return payout
        }) else { return }
        let timeline = timeline ?? s.configuration.timeline(payout)
        s.payouts.setTimeline(payoutID, timeline)
        journal(&s, .detailsAdded(payoutID: payoutID, details, timeline: timeline.steps, at: now, decision: timeline.decision))
    }

    /// Refuses a debit of `settlement` that the account's limits or balance do not allow.
    private func checkFunds(_ s: State, _ account: Account, _ settlement: Money, at now: VirtualTime) throws(PayoutRefusal) {
        if let limit = account.limits.transaction, settlement > limit { throw .limitExceeded(.transaction) }
        if account.limits.daily != nil || account.limits.monthly != nil {  // the usage looked up only for limits that need it
            let usage = s.usage[account.id] ?? [:]
            if let limit = account.limits.daily, (usage[now.dayNumber] ?? .zero) + settlement > limit { throw .limitExceeded(.daily) }
            if let limit = account.limits.monthly, (usage[-now.monthNumber] ?? .zero) + settlement > limit { throw .limitExceeded(.monthly) }
        }
        guard settlement <= account.balance else { throw .insufficientFunds }
    }

    /// Adds an accepted payout: debits the account and counts it against the limits (unless it
    /// is staged or awaits details), and starts its timeline when pending. The timeline is the
    /// scenario's choice, unless `timeline` gives the one a journal recorded.
    func insert(_ s: inout State, _ request: PayoutRequest, settlement: Money, at now: VirtualTime, timeline: DecidedTimeline?,
                content: UInt64? = nil) -> Payout {
        let id = s.payouts.nextID
        let occurrence = Self.count(content ?? Self.contentKey(of: request, s), in: &s)
        let payout = Payout(
            id: id, dialect: request.dialect, account: request.account, reference: request.reference, country: request.country,
            currency: request.currency, amount: request.amount, settlementAmount: settlement, fields: request.fields,
            callbackURL: request.callbackURL ?? s.accounts[request.account]!.callbackURL, createdAt: now,
            status: request.status,
            history: Self.history(StatusChange(status: request.status, at: now, by: "create", reasonCode: nil, reason: nil)),
            occurrence: occurrence)
        let timeline = timeline ?? s.configuration.timeline(payout)
        s.payouts.append(payout, timeline: timeline)
        s.payoutsByAccount[request.account, default: []].append(id)
        if let reference = request.reference {
            s.references[request.account, default: ReferenceIndex()].insert(id, reference: reference, in: s.payouts)
        }
        if request.status.isDebited { move(&s, payout, .debit, at: now) }
        if request.status == .pending { scheduleTimeline(&s, payoutID: id, from: now) }
        let expiresAfter = request.expiresAfter.map { min(max($0, .zero), PayoutRequest.longestExpiry) }  // what a journal holds
        if request.status.awaitsExecution, let lifetime = expiresAfter { schedule(&s, .expiry(payoutID: id), at: now.adding(lifetime)) }
        journal(&s, .created(request.expiring(after: expiresAfter), at: now, settlement: settlement, timeline: timeline.steps,
                             decision: timeline.decision))
        s.observer?(.created(payout))
        return payout
    }

    /// What `request` asks for (`Payout.contentKey`).
    static func contentKey(of request: PayoutRequest, _ s: State) -> UInt64 {
        Payout.contentKey(dialect: request.dialect, account: request.account, currency: request.currency, amount: request.amount,
                          fields: request.fields, reference: request.reference, s.configuration.contentFields)
    }

    /// Counts a payout of content `key`: its occurrence.
    static func count(_ key: UInt64, in s: inout State) -> Int {
        let occurrence = s.occurrences[key, default: 0] + 1
        s.occurrences[key] = occurrence
        return occurrence
    }

    /// Counts every payout's occurrence again, in the order they were made (a state restored from a
    /// snapshot, whose binary form does not hold them, or one taken under other content fields).
    static func recountOccurrences(_ s: inout State) {
        s.occurrences = [:]
        for payout in s.payouts.all {
            let occurrence = count(payout.contentKey(s.configuration.contentFields), in: &s)
            if occurrence != payout.occurrence { s.payouts.modify(payout.id) { $0.setOccurrence(occurrence) } }
        }
    }

    /// Changes a payout's status now, on behalf of `actor` (`merchant`, an API caller, or `admin`). A change made
    /// by anyone but the bank's own timeline replaces the timeline: releasing a held payout starts
    /// it again from the beginning, any other change ends it.
    @discardableResult
    package func changeStatus(payoutID: Int, to status: PayoutStatus, by actor: String, reasonCode: String? = nil,
                             reason: String? = nil, bankReference: String? = nil,
                             statusDetail: String? = nil) throws(TransitionError) -> Payout? {
        let now = clock.now
        let step = TimelineStep(after: .zero, status: status, reasonCode: reasonCode, reason: reason,
                                bankReference: bankReference, statusDetail: statusDetail)
        return try state.withLock { (s) throws(TransitionError) -> Payout? in try change(&s, payoutID, to: step, by: actor, at: now) }
    }

    /// `changeStatus` under the lock; nil when there is no such payout.
    func change(_ s: inout State, _ payoutID: Int, to step: TimelineStep, by actor: String, at now: VirtualTime) throws(TransitionError) -> Payout? {
        guard s.payouts[payoutID] != nil else { return nil }
        try apply(&s, step, to: payoutID, at: now, by: actor)
        s.payouts.startNewGeneration(payoutID)
        if step.status == .pending { scheduleTimeline(&s, payoutID: payoutID, from: now) }
        journal(&s, .statusChanged(payoutID: payoutID, to: step, by: actor, at: now))
        return s.payouts[payoutID]
    }

    /// The one place a status changes: checks the lifecycle, records the change, refunds when the
    /// payout leaves the debited statuses (debits when it enters them: only `executing`, its
    /// checks passed), and queues the notification.
    func apply(_ s: inout State, _ step: TimelineStep, to payoutID: Int, at time: VirtualTime, by actor: String,
               executing: Bool = false) throws(TransitionError) {
        var status = step.status  // the step's own, read, not copied with the rest of it
        var from = status
        let changed = try s.payouts.modify(payoutID) { (payout) throws(TransitionError) -> Payout in
            from = payout.status
            if status == .rejected, payout.status == .completed { status = .returned }  // a late rejection
            guard payout.status.canChange(to: status), executing || payout.status.isDebited || !status.isDebited else {
                throw TransitionError(from: payout.status, to: status)
            }
            payout.status = status
            let rejected = status == .rejected || status == .returned
            let (code, reason) = rejected ? (step.reasonCode, step.reason) : (payout.reasonCode, payout.reason)
            if let reference = step.bankReference { payout.bankReference = reference }
            if let detail = step.statusDetail { payout.statusDetail = detail }
            payout.history.append(StatusChange(status: status, at: time, by: actor, reasonCode: code, reason: reason))
            return payout
        }
        guard let payout = changed else { return }
        s.observer?(.statusChanged(payout, from: from, by: actor, at: time))
        if from.isDebited != status.isDebited { move(&s, payout, from.isDebited ? .refund : .debit, at: time) }
        let notification = StatusNotification(id: s.notifications.count + 1, of: payout.shared, status: status, changedAt: time)
        s.notifications.append(notification)
        if notification.url != nil { schedule(&s, .delivery(notificationID: notification.id, attempt: 0), at: time) }
    }

    /// A history starting with `first`, with room for the usual few changes (growing one at a
    /// time would reallocate it on each).
    private static func history(_ first: StatusChange) -> [StatusChange] {
        var history: [StatusChange] = []
        history.reserveCapacity(4)
        history.append(first)
        return history
    }

    func scheduleTimeline(_ s: inout State, payoutID: Int, from time: VirtualTime) {
        guard let plan = s.payouts.plan(payoutID), let first = plan.timeline.first else { return }
        schedule(&s, .timeline(payoutID: payoutID, generation: plan.generation, step: 0), at: first.due(after: time))
    }

    /// Debits a payout's settlement amount from its account (counting it against the limits),
    /// or refunds it, with its ledger entry.
    private func move(_ s: inout State, _ payout: Payout, _ kind: LedgerEntry.Kind, at time: VirtualTime) {
        let amount = kind == .debit ? -payout.settlementAmount : payout.settlementAmount
        guard let index = s.accounts.index(forKey: payout.account) else { return }
        // In place: one lookup, no copy of the account (reading `values[index]` would copy it).
        let balanceAfter = Self.add(amount, to: &s.accounts.values[index].balance)
        if kind == .debit { Self.count(payout.settlementAmount, at: time, in: &s.usage[payout.account, default: [:]]) }
        s.appendLedger(payout, kind, amount: amount, balanceAfter: balanceAfter, at: time)
    }

    /// Adds `amount` to `balance` and returns the sum.
    private static func add(_ amount: Money, to balance: inout Money) -> Money {
        balance += amount
        return balance
    }

    /// Counts a debit against its account's daily and monthly limits (the account's usage looked up once).
    private static func count(_ amount: Money, at time: VirtualTime, in usage: inout [Int: Money]) {
        usage[time.dayNumber, default: .zero] += amount
        usage[-time.monthNumber, default: .zero] += amount
    }

    /// `amount` in `currency` expressed in `target`, through USD.
    func convert(_ amount: Money, from currency: String, to target: String, _ rates: ExchangeRates) -> Money? {
        if currency == target { return amount }
        guard let usd = rates.toUSD(amount, from: currency) else { return nil }
        return rates.fromUSD(usd, to: target)
    }
}

extension PayoutRequest {
    /// This request expiring after `duration` instead.
    fileprivate func expiring(after duration: Duration?) -> PayoutRequest {
        var request = self
        request.expiresAfter = duration
        return request
    }
}
