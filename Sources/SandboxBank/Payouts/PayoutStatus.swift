// The neutral payout lifecycle every dialect maps onto, each to its own statuses.
//
//   staged ──────────┐           (created without a debit: executing debits and goes on as pending)
//   awaitingDetails ─┤
//                    ▼
//   created ─▶ pending ─▶ delivered ─▶ completed ─▶ returned
//                │  ▲         │
//                ▼  │         └──────▶ rejected
//              onHold           (pending may also be rejected: a bank refusal before sending)
//   pending and onHold ─▶ cancelled;  staged and awaitingDetails ─▶ cancelled or expired
//
// cancelled, rejected, returned and expired are final; each change is recorded and notified.

/// Where a payout stands.
public enum PayoutStatus: String, Sendable, CaseIterable, Codable {
    /// Created without a debit, waiting to be executed (`Bank.execute`).
    case staged
    /// Created without a debit, waiting for the recipient's details; executed once they come.
    case awaitingDetails
    /// Accepted and debited, not yet sent to the bank.
    case pending
    /// Held by the account; not processed until released.
    case onHold
    /// Sent to the bank, which is processing it.
    case delivered
    /// The money reached the account.
    case completed
    /// Refused by the bank.
    case rejected
    /// Cancelled by the account.
    case cancelled
    /// Reversed by the bank after it had completed (a late rejection).
    case returned
    /// Never executed: its time ran out while staged or awaiting details.
    case expired

    /// The statuses this one may change to.
    public var successors: Set<PayoutStatus> { Set(Self.allCases.filter(canChange)) }

    /// Whether a change to `next` is allowed. (A switch, not a set made on each call: every
    /// status change asks.)
    ///
    /// - Parameters:
    ///   - next: The status it would change to.
    /// - Returns: True when the bank may move a payout from this status to `next`.
    public func canChange(to next: PayoutStatus) -> Bool {
        switch (self, next) {
        case (.staged, .pending), (.staged, .cancelled), (.staged, .expired),
             (.awaitingDetails, .pending), (.awaitingDetails, .cancelled), (.awaitingDetails, .expired),
             (.pending, .onHold), (.pending, .delivered), (.pending, .rejected), (.pending, .cancelled),
             (.onHold, .pending), (.onHold, .cancelled),
             (.delivered, .completed), (.delivered, .rejected),
             (.completed, .returned): true
        default: false
        }
    }

    /// The sandbox's own name for it, which the admin API and scenario files use: STAGED,
    /// AWAITING_DETAILS, PENDING, ON_HOLD, DELIVERED, COMPLETED, REJECTED (also for a return after
    /// completion), CANCELLED, EXPIRED. Each dialect has its own names besides.
    public var name: String {
        switch self {
        case .staged: "STAGED"
        case .awaitingDetails: "AWAITING_DETAILS"
        case .pending: "PENDING"
        case .onHold: "ON_HOLD"
        case .delivered: "DELIVERED"
        case .completed: "COMPLETED"
        case .rejected, .returned: "REJECTED"
        case .cancelled: "CANCELLED"
        case .expired: "EXPIRED"
        }
    }

    /// The status one of `names` stands for (REJECTED is `rejected`; the bank makes it a return
    /// when the payout had completed); nil for other words.
    ///
    /// - Parameters:
    ///   - name: A status's name, as ``name`` gives it: `PENDING`, `ON_HOLD`, `REJECTED`.
    public init?(name: String) {
        guard let status = Self.byName[name] else { return nil }
        self = status
    }

    /// Every name a payout's status may have, in lifecycle order: STAGED, AWAITING_DETAILS,
    /// PENDING, ..., EXPIRED (the names' one list; the admin API's document and the testing
    /// library take it from here).
    public static let allNames: [String] = allCases.map(\.name).reduce(into: []) { names, name in
        if !names.contains(name) { names.append(name) }
    }

    /// The names a bank timeline, a forced change or a filter usually takes, in lifecycle order,
    /// for messages: "PENDING, ON_HOLD, ...". (STAGED, AWAITING_DETAILS and EXPIRED are the
    /// states of payouts created without a debit, which no timeline reaches.)
    public static let names = allCases.filter { !$0.awaitsExecution && $0 != .expired && $0 != .returned }.map(\.name)

    /// Each of `names` and its status (the first case of that name: `rejected`, not `returned`).
    private static let byName = Dictionary(uniqueKeysWithValues: names.map { name in (name, allCases.first { $0.name == name }!) })

    /// Whether a payout may be created in this status: pending or on hold (debited at once),
    /// staged or awaiting details (debited when executed).
    public var isStart: Bool { self == .pending || self == .onHold || awaitsExecution }

    /// Whether a payout in this status waits for `Bank.execute`: staged, or awaiting details.
    public var awaitsExecution: Bool { self == .staged || self == .awaitingDetails }

    /// Whether a payout ended here without paying (rejected, reversed after completing, cancelled,
    /// expired): its money came back, and paying the same again pays once.
    package var isUnpaidEnd: Bool { self == .rejected || self == .returned || self == .cancelled || self == .expired }

    /// Whether a payout in this status has been debited (and not refunded).
    public var isDebited: Bool {
        switch self {
        case .pending, .onHold, .delivered, .completed: true
        case .staged, .awaitingDetails, .rejected, .cancelled, .returned, .expired: false
        }
    }
}
