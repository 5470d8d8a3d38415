/// A notification of one status change, and its delivery attempts.
///
/// What it carries is neutral; the dialect of its payout renders it in its own wire format and
/// signature when it is sent (`Dialect.notification`).
public struct StatusNotification: Sendable, Equatable {
    /// Where delivery stands.
    public enum State: Sendable, Equatable {
        /// Waiting for its next attempt.
        case pending
        /// A 2xx answer was received.
        case delivered
        /// Every attempt failed.
        case exhausted
        /// No callback URL: journaled, never sent.
        case noURL
    }

    /// What changed: fixed once made, shared by every copy (a notification is copied to be
    /// sent and kept by whoever renders it later, so a copy costs one reference, not ten).
    final class Change: Sendable {
        let id: Int
        let payoutID: Int
        let dialect: String
        let account: String
        let reference: String?
        let status: PayoutStatus
        let changedAt: VirtualTime
        let bankReference: String?
        let statusDetail: String?
        let url: String?
        /// The payout's request fields (shared with it, not copied), for the renderer.
        let fields: Fields

        init(id: Int, payoutID: Int, dialect: String, account: String, reference: String?, status: PayoutStatus, changedAt: VirtualTime,
             bankReference: String?, statusDetail: String?, url: String?, fields: Fields) {
            self.id = id
            self.payoutID = payoutID
            self.dialect = dialect
            self.account = account
            self.reference = reference
            self.status = status
            self.changedAt = changedAt
            self.bankReference = bankReference
            self.statusDetail = statusDetail
            self.url = url
            self.fields = fields
        }
    }

    let change: Change
    public var id: Int { change.id }
    public var payoutID: Int { change.payoutID }
    /// The API of the payout, which renders the notification.
    public var dialect: String { change.dialect }
    public var account: String { change.account }
    public var reference: String? { change.reference }
    /// The status the payout changed to.
    public var status: PayoutStatus { change.status }
    /// When it changed (virtual clock).
    public var changedAt: VirtualTime { change.changedAt }
    public var bankReference: String? { change.bankReference }
    public var statusDetail: String? { change.statusDetail }
    public var url: String? { change.url }
    /// The payout's request fields, by its API's names.
    public var fields: Fields { change.fields }
    public internal(set) var state: State
    public internal(set) var attempts: [DeliveryAttempt]
    /// When the next attempt is due, while pending.
    public internal(set) var nextAttemptAt: VirtualTime?
    /// What webhook chaos does to it, once decided (nil: nothing, or not decided yet).
    public internal(set) var chaos: ChaosPlan?
    /// The copy being sent is forged (`ChaosKind.forged`): its dialect signs it with a wrong key.
    /// Only ever set on the copy handed to the sender.
    public internal(set) var forged = false

    /// The attempts the retry schedule made (not redeliveries asked for by hand, nor chaos copies).
    var scheduledAttempts: Int { attempts.count(where: \.isScheduled) }

    /// The number of its first attempt of its own (not a copy), if it made one.
    var firstOwnAttempt: Int? { attempts.first { $0.chaos?.kind.isCopy != true }?.number }

    public static func == (lhs: StatusNotification, rhs: StatusNotification) -> Bool {
        let (a, b) = (lhs.change, rhs.change)
        return a.id == b.id && a.payoutID == b.payoutID && a.dialect == b.dialect && a.account == b.account && a.reference == b.reference
            && a.status == b.status && a.changedAt == b.changedAt && a.bankReference == b.bankReference
            && a.statusDetail == b.statusDetail && a.url == b.url && a.fields == b.fields
            && lhs.state == rhs.state && lhs.attempts == rhs.attempts && lhs.nextAttemptAt == rhs.nextAttemptAt
            && lhs.chaos == rhs.chaos && lhs.forged == rhs.forged
    }
}

/// One try at delivering a notification.
public struct DeliveryAttempt: Sendable, Equatable {
    public let number: Int
    public let at: VirtualTime
    public let outcome: DeliveryOutcome
    /// Asked for through the admin API, outside the retry schedule.
    public let manual: Bool
    /// What webhook chaos did to it; nil for a plain attempt.
    public let chaos: ChaosMark?

    init(number: Int, at: VirtualTime, outcome: DeliveryOutcome, manual: Bool, chaos: ChaosMark? = nil) {
        self.number = number
        self.at = at
        self.outcome = outcome
        self.manual = manual
        self.chaos = chaos
    }

    /// A retry: an attempt of the retry schedule after its first.
    public func isRetry(in notification: StatusNotification) -> Bool {
        isScheduled && notification.attempts.prefix(number - 1).contains(where: \.isScheduled)
    }

    /// Made by the retry schedule: not asked for by hand, not a chaos copy.
    var isScheduled: Bool { !manual && chaos?.kind.isCopy != true }
}

/// What the receiver answered, or why there was no answer.
public struct DeliveryOutcome: Sendable, Equatable {
    /// The HTTP status, when a response arrived.
    public var status: Int?
    /// Why no response arrived (refused, timed out...).
    public var error: String?
    /// The start of the response body, for the journal.
    public var body: String?

    public init(status: Int? = nil, error: String? = nil, body: String? = nil) {
        self.status = status
        self.error = error
        self.body = body
    }

    /// Delivered: any 2xx status.
    public var succeeded: Bool { status.map { (200 ..< 300).contains($0) } ?? false }
}
