import SandboxBank
import SandboxSupport

/// A payout of the Mannco API as its user sees it: Mannco's status names, the cashout's method,
/// fee and times (the Mannco guide, "Endpoints"), all read from the bank's payout.
struct ManncoCashout {
    let payout: Payout

    /// The bank's lifecycle in Mannco's words: `pending` (also while held), `processing` (sent to
    /// the provider), `completed`, `failed` (refunded; also a failure after completion), and
    /// `cancelled`.
    static func status(_ status: PayoutStatus) -> String {
        switch status {
        case .staged, .awaitingDetails, .pending, .onHold: "pending"
        case .delivered: "processing"
        case .completed: "completed"
        case .rejected, .returned, .expired: "failed"
        case .cancelled: "cancelled"
        }
    }

    /// Whether a cashout in `status` is still `pending` or `processing`: a user may have one.
    static func isOpen(_ status: PayoutStatus) -> Bool {
        ["pending", "processing"].contains(Self.status(status))
    }

    var status: String { Self.status(payout.status) }
    var cents: Int64 { payout.amount.hundredths }
    var method: ManncoMethod { payout.fields[Field.method].flatMap(ManncoMethod.init(rawValue:)) ?? .payoneer }
    var fee: Int64 { method.fee(cents) }
    var email: String { payout.fields[Field.email] ?? "" }
    var requestedAt: Int64 { payout.createdAt.unixSeconds }
    var estimatedCompletion: Int64 { method.estimatedCompletion(from: payout.createdAt).unixSeconds }
    /// When it completed, while it stands completed.
    var completedAt: Int64? {
        payout.status == .completed ? payout.history.last { $0.status == .completed }?.at.unixSeconds : nil
    }

    /// The payout's fields, by these names: what scenario rules match.
    enum Field {
        /// The user's id (the payout's account, matched as `user`).
        static let user = "user"
        static let method = "method"
        /// The amount in dollars ("1000.00"): every API's rules compare amounts in major units.
        static let amount = "amount"
        /// The payout email: the request's, or else the user's.
        static let email = "email"
    }

    /// A row of `GET /user/getCashoutHistory`.
    var historyRow: OrderedJSON {
        .object([("id", .number(Int64(payout.id))), ("amount", .number(cents)), ("method", .value(.string(method.rawValue))),
                 ("status", .value(.string(status))), ("requestedAt", .number(requestedAt)), ("completedAt", .optional(completedAt)),
                 ("estimatedCompletionAt", .number(estimatedCompletion)),
                 ("transactionId", .value(payout.bankReference.map { .string($0) } ?? .null))])
    }
}

extension VirtualTime {
    /// Whole seconds since 1970 (UTC), as Mannco's times are given.
    var unixSeconds: Int64 { milliseconds / 1000 }
}
