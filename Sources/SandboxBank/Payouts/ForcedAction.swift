/// The outcomes the admin forces (`POST /sandbox/cashouts/{id}/actions`, as a provider's staging
/// panel offers them), each with the status it sets.
public enum ForcedAction: String, Sendable, CaseIterable {
    /// DELIVERED, COMPLETED, REJECTED (a return, once COMPLETED), ON_HOLD, PENDING again (the
    /// timeline starts over), CANCELLED.
    case deliver, complete, reject, hold, release, cancel

    /// Who a cashout's history names for a forced change.
    package static let actor = "admin"

    /// The status it sets (a rejection of a COMPLETED cashout: the bank makes it a return).
    public var status: PayoutStatus {
        switch self {
        case .deliver: .delivered
        case .complete: .completed
        case .reject: .rejected
        case .hold: .onHold
        case .release: .pending
        case .cancel: .cancelled
        }
    }

    /// The action that set `status`, if one does.
    package init?(setting status: PayoutStatus) {
        guard let action = Self.allCases.first(where: { $0.status == (status == .returned ? .rejected : status) }) else { return nil }
        self = action
    }

    /// "deliver, complete, reject, hold, release or cancel"
    package static let list = allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or \(allCases.last!.rawValue)"
}
