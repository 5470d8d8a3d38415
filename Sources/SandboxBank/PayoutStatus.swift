// The neutral payout lifecycle every dialect maps onto, each to its own statuses.
//
//   created ─▶ pending ─▶ delivered ─▶ completed ─▶ returned
//                │  ▲         │
//                ▼  │         └──────▶ rejected
//              onHold           (pending may also be rejected: a bank refusal before sending)
//   pending and onHold ─▶ cancelled
//
// cancelled, rejected and returned are final; each change is recorded and notified.

/// Where a payout stands.
public enum PayoutStatus: String, Sendable, CaseIterable, Codable {
    /// Accepted, not yet sent to the bank.
    case pending
    /// Held by the merchant; not processed until released.
    case onHold
    /// Sent to the bank.
    case delivered
    /// The money reached the account.
    case completed
    /// Refused by the bank.
    case rejected
    /// Cancelled by the merchant.
    case cancelled
    /// Reversed by the bank after it had completed (a late rejection).
    case returned

    /// The statuses this one may change to.
    public var successors: Set<PayoutStatus> {
        switch self {
        case .pending: [.onHold, .delivered, .rejected, .cancelled]
        case .onHold: [.pending, .cancelled]
        case .delivered: [.completed, .rejected]
        case .completed: [.returned]
        case .rejected, .cancelled, .returned: []
        }
    }

    /// Whether a change to `next` is allowed.
    public func canChange(to next: PayoutStatus) -> Bool { successors.contains(next) }

    /// The sandbox's own name for it, which the admin API and scenario files use: PENDING, ON_HOLD, DELIVERED,
    /// COMPLETED, REJECTED (also for a return after completion), CANCELLED.
    public var name: String {
        switch self {
        case .pending: "PENDING"
        case .onHold: "ON_HOLD"
        case .delivered: "DELIVERED"
        case .completed: "COMPLETED"
        case .rejected, .returned: "REJECTED"
        case .cancelled: "CANCELLED"
        }
    }

    /// The status a name stands for (REJECTED is `rejected`; the bank makes it a return when the
    /// payout had completed); nil for other words.
    public init?(name: String) {
        guard let status = Self.byName[name] else { return nil }
        self = status
    }

    /// The names, in lifecycle order, for messages: "PENDING, ON_HOLD, ...".
    public static let names = ["PENDING", "ON_HOLD", "DELIVERED", "COMPLETED", "REJECTED", "CANCELLED"]

    private static let byName: [String: PayoutStatus] = [
        "PENDING": .pending, "ON_HOLD": .onHold, "DELIVERED": .delivered, "COMPLETED": .completed,
        "REJECTED": .rejected, "CANCELLED": .cancelled,
    ]

    /// Whether the merchant gets the money back on entering this status.
    public var refunds: Bool { self == .rejected || self == .cancelled || self == .returned }
}
