package import SandboxSupport
import Synchronization

/// The dialect-neutral bank: accounts and their balances, payouts and their lifecycle, the
/// ledger, the scheduled bank events and the notification outbox, on one virtual clock.
///
/// All state sits behind one `Mutex`: every command is atomic (a balance is checked and debited in
/// one step, whatever the concurrency). Notifications are handed to `deliver` outside the lock, and
/// many can be on their way at once (see `Bank+Deliveries.swift`).
///
/// ```swift
/// let bank = Bank(clock: VirtualClock(mode: .manual), accounts: [Account(id: "acme", dialect: "api", balance: Money("5000")!)],
///                 sender: { _ in DeliveryOutcome(status: 200) })
/// let payout = try bank.createPayout(PayoutRequest(dialect: "api", account: "acme", reference: "o-1",
///                                                  currency: "USD", amount: Money("100")!))
/// bank.advance(by: .seconds(15))   // DELIVERED, then COMPLETED
/// ```
@usableFromInline package final class Bank: Sendable {
    /// How the bank behaves.
    package struct Configuration: Sendable {
        /// The timeline a new payout follows, and what chose it (the scenario engine decides;
        /// default: the default bank's).
        package var timeline: @Sendable (Payout) -> DecidedTimeline = { _ in DecidedTimeline(TimelineStep.defaultTimeline) }
        /// Refuses a payout at creation (a scenario's `decline` rule), given which payout of its
        /// content it would be (`Payout.occurrence`); nil lets it through.
        package var decline: @Sendable (_ request: PayoutRequest, _ occurrence: Int) -> Decline? = { _, _ in nil }
        /// The fields that, with its API, account, currency and amount, say what a payout is
        /// (`Payout.contentKey`): the APIs' rule fields.
        package var contentFields: Set<String> = []
        /// Delays between a failed delivery and the next attempt; one attempt more than entries.
        package var retrySchedule: [Duration] = [.seconds(300), .seconds(1500), .seconds(7500), .seconds(37500), .seconds(187_500)]
        /// Conversion to settlement currencies.
        var rates = ExchangeRates.sandbox
        /// The first payout id.
        var firstPayoutID = 1_000_001
        /// Webhook chaos (`Bank+Chaos.swift`); nil for none.
        package var chaos: ChaosPolicy?

        package init() {}
    }

    package struct State: Sendable {
        package var accounts: [String: Account] = [:]
        package var accountOrder: [String] = []
        package var payouts: PayoutTable
        /// The ids of each account's payouts, in creation order.
        package var payoutsByAccount: [String: [Int]] = [:]
        /// How many payouts of each content (`Payout.contentKey`) were made: the next one's `occurrence` is one more.
        var occurrences: [UInt64: Int] = [:]
        /// Account -> the payout's own reference -> payout id, for payouts made with one.
        package var references: [String: ReferenceIndex] = [:]
        var ledger = ChunkedArray<LedgerRecord>()
        /// Amounts counted against daily and monthly limits: account -> period -> total, the period
        /// being `VirtualTime.dayNumber` (days) or `-monthNumber` (months), so the keys never meet.
        package var usage: [String: [Int: Money]] = [:]
        package var notifications = ChunkedArray<StatusNotification>()
        /// The receivers' answers, each distinct one kept once and shared by its attempts.
        package var outcomes = InternTable<DeliveryOutcome, OutOfLine<DeliveryOutcome>>()
        package var queue = EventQueue()
        var configuration: Configuration
        /// Receives each change as it is made, under the lock (see `startRecording`).
        var recorder: (@Sendable (BankRecord) -> Void)?
        /// Sees the whole state after each record (tests compare a replay with it).
        var afterRecord: (@Sendable (State) -> Void)?
        /// Told of each event as it happens, under the lock (see `observe`); kept across a reset.
        var observer: (@Sendable (BankEvent) -> Void)?
        /// Called, under the lock, when an event is scheduled at or before the clock's time (see
        /// `whenDue`); kept across a reset.
        var wake: (@Sendable () -> Void)?
        /// The deliveries on their way; a reset or restore starts a new set, and answers to the
        /// old one are dropped.
        var deliveries = Deliveries()
        /// An advance is running: what other requests schedule meanwhile waits in `deferred`
        /// until it ends (see `schedule`).
        var advancing = false
        /// The state is being changed by the run of events itself (see `runningEvents`).
        var running = false
        /// Events scheduled by other requests while an advance runs, numbered in the order they
        /// came (as if queued then: a replay, which queues them then, orders ties alike).
        var deferred: [EventQueue.Event] = []
        /// Replaying a journal of a version before 0.2: the delivery its last `eventRan` took off
        /// the queue, while its attempt is not replayed yet.
        var legacyTakenDelivery: Int?
        /// How many notifications each chaos rule (by index) matched, for their `every`; counted
        /// from zero again when the policy changes.
        package var chaosCounts: [Int: Int] = [:]
        /// Payout -> its notifications whose chaos waits for a later one of the same payout (held,
        /// or a replay not yet set off), oldest first.
        package var chaosWatch: [Int: [Int]] = [:]
    }

    package let clock: VirtualClock
    /// Sends a notification: returns the outcome when it is known at once, else calls its second argument with it later.
    let deliver: Deliver
    let state: Mutex<State>
    /// Held while events run, so time moves for one caller at a time.
    let runner = Mutex(())
    /// Advances waiting for `runner`: a clock driver's run gives way to them (a lock does not
    /// queue its waiters, and a driver that is woken again and again would take it every time).
    let advancesWaiting = Atomic<Int>(0)
    /// Counts the changes made (each record journaled, each restore): what a reader caches by.
    let changeCount = Atomic<Int>(0)

    /// How many changes the bank has made in its life: equal counts, equal state (reports use it
    /// as part of their `ETag`). Read it before reading the state it stands for.
    package var changes: Int { changeCount.load(ordering: .acquiring) }

    /// Sends a notification of `bank` (the bank that calls it hands itself over, so that what
    /// delivers need not hold it): returns what the receiver answered when that is known at once
    /// (a receiver in the same process), else nil, and calls `done` with it later, from any
    /// thread, exactly once.
    package typealias Deliver = @Sendable (_ bank: Bank, _ notification: StatusNotification,
                                          _ done: @escaping @Sendable (DeliveryOutcome) -> Void) -> DeliveryOutcome?

    /// A bank with `accounts`, on `clock`; `deliver` sends notifications.
    package init(clock: VirtualClock, configuration: Configuration = Configuration(),
                accounts: [Account] = [], deliver: @escaping Deliver) {
        self.clock = clock
        self.deliver = deliver
        var initial = State(payouts: PayoutTable(firstID: configuration.firstPayoutID), configuration: configuration)
        for account in accounts {
            initial.accounts[account.id] = account
            initial.accountOrder.append(account.id)
        }
        state = Mutex(initial)
    }

    /// A bank whose notifications `sender` delivers, each on the thread that sends it (tests, tools).
    convenience init(clock: VirtualClock, configuration: Configuration = Configuration(),
                            accounts: [Account] = [],
                            sender: @escaping @Sendable (StatusNotification) -> DeliveryOutcome) {
        self.init(clock: clock, configuration: configuration, accounts: accounts) { _, notification, _ in sender(notification) }
    }

    // MARK: - Reading

    /// The exchange rates conversions use.
    package var rates: ExchangeRates { state.withLock { $0.configuration.rates } }

    /// Forgets every payout, ledger entry, notification and scheduled event, and starts again
    /// with `accounts` and `configuration` (ids count from the first again). The clock stays.
    package func reset(accounts: [Account], configuration: Configuration) {
        runner.withLock { _ in
            state.withLock { s in
                Self.reset(&s, accounts: accounts, configuration: configuration)
                journal(&s, .reset(accounts))
            }
        }
    }

    static func reset(_ s: inout State, accounts: [Account], configuration: Configuration) {
        s = State(payouts: PayoutTable(firstID: configuration.firstPayoutID), configuration: configuration, recorder: s.recorder,
                  afterRecord: s.afterRecord, observer: s.observer, wake: s.wake)
        for account in accounts {
            s.accounts[account.id] = account
            s.accountOrder.append(account.id)
        }
    }

    /// Changes how the bank behaves from now on (a scenario loaded into a running sandbox);
    /// payouts already created keep their timelines.
    /// Another chaos policy counts its rules' matches from zero.
    package func reconfigure(_ change: (inout Configuration) -> Void) {
        state.withLock { s in
            let policy = s.configuration.chaos?.identity
            change(&s.configuration)
            if s.configuration.chaos?.identity != policy { s.chaosCounts = [:] }
        }
    }

    /// Every account, in the order they were added.
    package var accounts: [Account] {
        state.withLock { s in s.accountOrder.compactMap { s.accounts[$0] } }
    }

    package func account(id: String) -> Account? {
        state.withLock { $0.accounts[id] }
    }

    /// Whether an account passes `test`, without copying the accounts.
    package func containsAccount(where test: (Account) -> Bool) -> Bool {
        state.withLock { $0.accounts.values.contains(where: test) }
    }

    /// The first account, in the order they were added, that passes `test`.
    package func account(where test: (Account) -> Bool) -> Account? {
        state.withLock { s in
            for id in s.accountOrder { if let account = s.accounts[id], test(account) { return account } }
            return nil
        }
    }

    /// One part of an account (`bank.account(id: "acme", \.balance)`), without copying the rest.
    /// Inlinable: specialized where it is called (a notification reads its merchant's secret).
    @inlinable
    package func account<Part: Sendable>(id: String, _ part: (Account) -> Part) -> Part? {
        var found: Part?
        withAccount(id: id) { found = part($0) }
        return found
    }

    /// Calls `body` with the account `id`, read in place under the lock (not at all when there is none).
    @usableFromInline
    func withAccount(id: String, _ body: (Account) -> Void) {
        state.withLock { s in
            // Reached through `inout`, which Dictionary yields in place; reading `values[index]`
            // would copy the account (each of its strings and tables retained, then released). (A
            // table a snapshot still shares is copied first, as by any change: a few accounts.)
            if let index = s.accounts.index(forKey: id) { Self.read(&s.accounts.values[index], body) }
        }
    }

    private static func read<Value>(_ value: inout Value, _ body: (Value) -> Void) {
        body(value)
    }

    /// Why an account could not be changed.
    package enum AccountChangeError: Error, Sendable, Equatable {
        /// `change` refused: the text says which field and why.
        case invalid(String)
        /// The settlement currency of an account with payouts cannot change (their amounts and
        /// refunds are in the old one).
        case currencyInUse
    }

    /// Changes (or, with `template`, creates) an account in one step under the lock, so a debit
    /// or refund happening meanwhile is never overwritten. Returns the account and whether it is new.
    package func updateAccount(id: String, creatingFrom template: Account?,
                               _ change: (inout Account) -> String?) throws(AccountChangeError) -> (Account, created: Bool) {
        try state.withLock { (s) throws(AccountChangeError) -> (Account, created: Bool) in
            let existing = s.accounts[id]
            guard var account = existing ?? template else { throw .invalid("no account \(id)") }
            if let problem = change(&account) { throw .invalid(problem) }
            if let existing, existing.currency != account.currency, s.payoutsByAccount[id]?.isEmpty == false {
                throw .currencyInUse
            }
            if existing == nil { s.accountOrder.append(id) }
            s.accounts[id] = account
            journal(&s, .account(account))
            return (account, existing == nil)
        }
    }

    package func payout(id: Int) -> Payout? {
        state.withLock { $0.payouts[id] }
    }

    /// What chose a payout's timeline: at its creation, or again when details were added as it
    /// was executed. nil when there is no such payout.
    package func decision(payoutID: Int) -> TimelineDecision? {
        state.withLock { $0.payouts.decision(payoutID) }
    }

    package func payout(account: String, reference: String) -> Payout? {
        state.withLock { s in s.references[account]?.id(of: reference, in: s.payouts).flatMap { s.payouts[$0] } }
    }

    /// Payouts in creation order, optionally of one account and/or in one status.
    package func payouts(account: String? = nil, status: PayoutStatus? = nil) -> [Payout] {
        state.withLock { s in
            guard let account else { return s.payouts.all.filter { status == nil || $0.status == status } }
            return (s.payoutsByAccount[account] ?? []).compactMap { s.payouts[$0] }.filter { status == nil || $0.status == status }
        }
    }

    /// How many payouts are in each status (without copying them).
    package func payoutCounts() -> [PayoutStatus: Int] {
        state.withLock { s in
            var counts: [PayoutStatus: Int] = [:]
            for payout in s.payouts.all { counts[payout.status, default: 0] += 1 }
            return counts
        }
    }

    /// Ledger entries in order, optionally of one account.
    package func ledger(account: String? = nil) -> [LedgerEntry] {
        state.withLock { s in account.map { id in s.ledgerEntries.filter { $0.account == id } } ?? Array(s.ledgerEntries) }
    }

    /// How many ledger entries an account has (without copying them).
    package func ledgerCount(account: String) -> Int {
        state.withLock { s in s.ledgerEntries.count { $0.account == account } }
    }

    /// Notifications in order, optionally of one payout.
    package func notifications(payoutID: Int? = nil) -> [StatusNotification] {
        state.withLock { s in payoutID.map { id in s.notifications.filter { $0.payoutID == id } } ?? Array(s.notifications) }
    }

    /// Calls `body` with each notification in order, optionally of one payout, read in place:
    /// a million are not copied. It runs under the bank's lock, so `body` must not call the bank.
    package func forEachNotification(payoutID: Int? = nil, _ body: (StatusNotification) -> Void) {
        state.withLock { s in
            // By index: the subscript yields each in place, where an iterator would copy it out.
            for index in s.notifications.indices where payoutID == nil || s.notifications[index].payoutID == payoutID {
                body(s.notifications[index])
            }
        }
    }

    /// How many notifications there are, optionally of one payout, and how many attempts they
    /// made (without copying them).
    package func notificationCount(payoutID: Int? = nil) -> (notifications: Int, attempts: Int) {
        var counts = (notifications: 0, attempts: 0)
        forEachNotification(payoutID: payoutID) { notification in
            counts.notifications += 1
            counts.attempts += notification.attempts.count
        }
        return counts
    }

    package func notification(id: Int) -> StatusNotification? {
        state.withLock { s in s.notifications.indices.contains(id - 1) ? s.notifications[id - 1] : nil }
    }

    /// The bank steps still to come for a payout, with when each is due (its expiry, for one that
    /// waits to be executed).
    package func scheduledSteps(payoutID: Int) -> [(at: VirtualTime, step: TimelineStep)] {
        state.withLock { s in
            if let payout = s.payouts[payoutID], payout.status.awaitsExecution {
                let expiry = s.queue.events.first { $0.kind == .expiry(payoutID: payoutID) }
                return expiry.map { [(VirtualTime(milliseconds: $0.at), TimelineStep(after: .zero, status: .expired))] } ?? []
            }
            guard let plan = s.payouts.plan(payoutID), let next = s.queue.events.first(where: {
                if case .timeline(payoutID, let generation, let step) = $0.kind { return generation == plan.generation && step == plan.nextStep }
                return false
            }), case .timeline(_, _, let index) = next.kind else { return [] }
            var at = VirtualTime(milliseconds: next.at)
            var upcoming = [(at: at, step: plan.timeline[index])]
            for step in plan.timeline.dropFirst(index + 1) {
                at = step.due(after: at)
                upcoming.append((at, step))
            }
            return upcoming
        }
    }

    /// When the next scheduled event that will still do something is due, if any.
    package var nextEventAt: VirtualTime? {
        state.withLock { s in
            dropStaleEvents(&s)
            return s.queue.first.map { VirtualTime(milliseconds: $0.at) }
        }
    }

    /// Removes events at the head of the queue that have nothing left to do.
    func dropStaleEvents(_ s: inout State) {
        while let event = s.queue.first, s.isStale(event) { _ = s.queue.popFirst() }
    }

    /// Hands a change, made in full, to the recorder. The record is made only when one is
    /// recording (a sandbox without `--state-dir` records nothing, and each record copies the
    /// change's request, fields and timeline).
    func journal(_ s: inout State, _ record: @autoclosure () -> BankRecord) {
        changeCount.add(1, ordering: .releasing)
        if let recorder = s.recorder { recorder(record()) }
        s.afterRecord?(s)
    }

    /// Queues an event, and wakes whoever runs due events when it is due already (see `queue`).
    /// While an advance runs, what other requests schedule (a create's steps, a hold's
    /// notification) waits until it ends, and then runs when due: an advance runs what was due
    /// when it began and what that leads to, so it ends however busy the sandbox is meanwhile.
    func schedule(_ s: inout State, _ kind: EventQueue.Kind, at time: VirtualTime) {
        let event = s.queue.reserve(kind, at: time)
        if s.advancing && !s.running { return s.deferred.append(event) }
        queue(&s, event)
    }

    /// Puts an event in the queue, waking whoever runs them when it is due already. Not when a
    /// run of events on a manual clock scheduled it (a next step, a notification, a retry, a chaos
    /// copy): that run goes on to the time it runs to and takes it, or, when the clock driver's
    /// run gives way to an advance, the advance does first. (A real-time clock's run ends at the
    /// time it began, so there it wakes the driver as before.)
    func queue(_ s: inout State, _ event: EventQueue.Event) {
        s.queue.insert(event)
        if let wake = s.wake, !(s.running && clock.mode == .manual), event.at <= clock.now.milliseconds { wake() }
    }

    /// Ends an advance: what other requests scheduled meanwhile goes into the queue.
    static func endAdvance(_ s: inout State) {
        for event in s.deferred { s.queue.insert(event) }
        (s.deferred, s.advancing) = ([], false)
    }

    /// Wakes whoever runs due events when the first one is due already.
    func wakeIfDue(_ s: State) {
        if let wake = s.wake, let first = s.queue.first, first.at <= clock.now.milliseconds { wake() }
    }
}

extension Bank.State {
    // Inlined where the events run: calling a function that reads the state, from where it is
    // `inout`, copies it whole (432 bytes) first.

    /// Whether a queued event has nothing left to do: a step of a timeline a hold, cancel or forced
    /// change replaced, or that already ran (a replayed journal leaves those queued); an attempt of
    /// a notification no longer pending, already made or moved; a chaos copy sent. (An event of something the bank does
    /// not have is not stale but broken: a snapshot keeps it, for the decoder to refuse.)
    @inline(__always) package func isStale(_ event: EventQueue.Event) -> Bool {
        switch event.kind {
        case .timeline(let payoutID, let generation, let step):
            guard let plan = payouts.progress(payoutID) else { return false }
            return generation < plan.generation || (generation == plan.generation && step < plan.nextStep)
        case .delivery(let id, let attempt):
            guard notifications.indices.contains(id - 1) else { return false }
            // Read in place (each a field, not a copy). Not when it was moved since (a held notification released early).
            return notifications[id - 1].state != .pending || notifications[id - 1].nextAttemptAt?.milliseconds != event.at
                || attempt < notifications[id - 1].scheduledAttempts
        case .expiry(let payoutID):
            guard let status = payouts.status(payoutID) else { return false }
            return !status.awaitsExecution
        case .chaos(let id, let copy):
            guard notifications.indices.contains(id - 1), let plan = notifications[id - 1].chaos, plan.copies.indices.contains(copy) else {
                return false
            }
            return plan.copies[copy].progress != .due(VirtualTime(milliseconds: event.at))
        }
    }
}

extension Bank.State {
    /// A state with no accounts, payouts or events yet (a snapshot's decoder fills one in).
    package init(payouts: PayoutTable, configuration: Bank.Configuration) {
        self.init(accounts: [:], payouts: payouts, configuration: configuration)
    }
}
