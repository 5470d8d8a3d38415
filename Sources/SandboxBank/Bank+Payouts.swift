// Creating payouts and changing their status: the balance, the limits, the ledger, the timeline
// and the notifications all follow from here, under the one lock.

extension Bank {
    /// Creates a payout: checks (in order) the reference, the scenario's declines, the currency,
    /// the minimum amount, the limits and the balance; debits the balance; starts the bank's timeline unless on hold.
    public func createPayout(_ request: PayoutRequest) throws(PayoutRefusal) -> Payout {
        let now = clock.now
        return try state.withLock { (s) throws(PayoutRefusal) -> Payout in
            guard let merchant = s.merchants[request.merchant] else { throw .unknownMerchant }
            guard s.references[merchant.login]?[request.reference] == nil else { throw .duplicateReference }
            if let decline = s.configuration.decline(request) { throw .declined(decline) }
            guard let settlement = convert(request.amount, from: request.currency, to: merchant.currency, s.configuration.rates) else {
                throw .unsupportedCurrency
            }
            // Compared in the payout's own currency, the one the refusal names: comparing the
            // rounded conversion instead would let 58.82 BRL pass a 58.83 BRL minimum.
            if let minimum = merchant.minimumAmounts[request.country],
               let local = convert(minimum, from: merchant.currency, to: request.currency, s.configuration.rates), request.amount < local {
                throw .belowMinimum(currency: request.currency, amount: local)
            }
            let usage = s.usage[merchant.login] ?? [:]
            let (day, month) = (now.dayNumber, -now.monthNumber)
            if let limit = merchant.limits.transaction, settlement > limit { throw .limitExceeded(.transaction) }
            if let limit = merchant.limits.daily, (usage[day] ?? .zero) + settlement > limit { throw .limitExceeded(.daily) }
            if let limit = merchant.limits.monthly, (usage[month] ?? .zero) + settlement > limit { throw .limitExceeded(.monthly) }
            guard settlement <= merchant.balance else { throw .insufficientFunds }
            return insert(&s, request, settlement: settlement, at: now, timeline: nil)
        }
    }

    /// Adds an accepted payout: debits the merchant, counts it against the limits, and starts its
    /// timeline (the scenario's choice, unless `timeline` gives the one a journal recorded).
    func insert(_ s: inout State, _ request: PayoutRequest, settlement: Money, at now: VirtualTime, timeline: [TimelineStep]?) -> Payout {
        var merchant = s.merchants[request.merchant]!
        let id = s.payouts.nextID
        let status: PayoutStatus = request.onHold ? .onHold : .pending
        let payout = Payout(
            id: id, dialect: request.dialect, merchant: merchant.login, reference: request.reference, country: request.country,
            currency: request.currency, amount: request.amount, settlementAmount: settlement, fields: request.fields,
            callbackURL: request.callbackURL ?? merchant.callbackURL, createdAt: now, status: status,
            history: Self.history(StatusChange(status: status, at: now, by: "create", rejectionCode: nil, rejectionReason: nil)))
        let timeline = timeline ?? s.configuration.timeline(payout)
        s.payouts.append(payout, timeline: timeline)
        s.references[merchant.login, default: [:]][request.reference] = id
        s.usage[merchant.login, default: [:]][now.dayNumber, default: .zero] += settlement
        s.usage[merchant.login, default: [:]][-now.monthNumber, default: .zero] += settlement
        merchant.balance -= settlement
        s.merchants[merchant.login] = merchant
        appendLedger(&s, merchant: merchant, payoutID: id, kind: .debit, amount: -settlement, at: now)
        if !request.onHold { scheduleTimeline(&s, payoutID: id, from: now) }
        journal(&s, .created(request, at: now, settlement: settlement, timeline: timeline))
        s.observer?(.created(payout))
        return payout
    }

    /// Changes a payout's status now, on behalf of `actor` (`merchant` or `admin`). A change made
    /// by anyone but the bank's own timeline replaces the timeline: releasing a held payout starts
    /// it again from the beginning, any other change ends it.
    @discardableResult
    public func changeStatus(payoutID: Int, to status: PayoutStatus, by actor: String, rejectionCode: Int? = nil,
                             rejectionReason: String? = nil, bankReferenceID: String? = nil,
                             statusReason: String? = nil) throws(TransitionError) -> Payout? {
        let now = clock.now
        let step = TimelineStep(after: .zero, status: status, rejectionCode: rejectionCode, rejectionReason: rejectionReason,
                                bankReferenceID: bankReferenceID, statusReason: statusReason)
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
    /// new status says so, and queues the notification.
    func apply(_ s: inout State, _ step: TimelineStep, to payoutID: Int, at time: VirtualTime, by actor: String) throws(TransitionError) {
        var step = step
        var from = step.status
        let changed = try s.payouts.modify(payoutID) { (payout) throws(TransitionError) -> Payout in
            from = payout.status
            if step.status == .rejected, payout.status == .completed { step.status = .returned }  // a late rejection
            guard payout.status.canChange(to: step.status) else { throw TransitionError(from: payout.status, to: step.status) }
            payout.status = step.status
            if step.status == .rejected || step.status == .returned {
                payout.rejectionCode = step.rejectionCode
                payout.rejectionReason = step.rejectionReason
            }
            if let reference = step.bankReferenceID { payout.bankReferenceID = reference }
            if let reason = step.statusReason { payout.statusReason = reason }
            payout.history.append(StatusChange(status: step.status, at: time, by: actor,
                                               rejectionCode: payout.rejectionCode, rejectionReason: payout.rejectionReason))
            return payout
        }
        guard let payout = changed else { return }
        s.observer?(.statusChanged(payout, from: from, by: actor, at: time))
        if step.status.refunds, var merchant = s.merchants[payout.merchant] {
            merchant.balance += payout.settlementAmount
            s.merchants[merchant.login] = merchant
            appendLedger(&s, merchant: merchant, payoutID: payoutID, kind: .refund, amount: payout.settlementAmount, at: time)
        }
        let notification = StatusNotification(
            change: .init(id: s.notifications.count + 1, payoutID: payoutID, dialect: payout.dialect, merchant: payout.merchant, reference: payout.reference,
                          status: step.status, changedAt: time, bankReferenceID: payout.bankReferenceID,
                          statusReason: payout.statusReason, comments: payout.fields["comments"], url: payout.callbackURL),
            state: payout.callbackURL == nil ? .noURL : .pending, attempts: [],
            nextAttemptAt: payout.callbackURL == nil ? nil : time)
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

    private func appendLedger(_ s: inout State, merchant: Merchant, payoutID: Int, kind: LedgerEntry.Kind, amount: Money, at time: VirtualTime) {
        s.ledger.append(LedgerEntry(id: s.ledger.count + 1, merchant: merchant.login, payoutID: payoutID, kind: kind,
                                    amount: amount, balanceAfter: merchant.balance, at: time))
    }

    /// `amount` in `currency` expressed in `target`, through USD.
    func convert(_ amount: Money, from currency: String, to target: String, _ rates: ExchangeRates) -> Money? {
        if currency == target { return amount }
        guard let usd = rates.toUSD(amount, from: currency) else { return nil }
        return rates.fromUSD(usd, to: target)
    }
}
