/// A notification of one status change, and its delivery attempts.
///
/// What it carries is neutral; each dialect renders it in its own wire format and signature when
/// it is sent (D24: a signed form, spec §5).
public struct StatusNotification: Sendable, Equatable {
    /// Where delivery stands.
    public enum State: Sendable, Equatable {
        /// Waiting for its next attempt.
        case pending
        /// A 2xx answer was received.
        case delivered
        /// Every attempt failed.
        case exhausted
        /// No notification URL: journaled, never sent.
        case noURL
    }

    public let id: Int
    public let payoutID: Int
    public let merchant: String
    public let externalID: String
    /// The status the payout changed to.
    public let status: PayoutStatus
    /// When it changed (virtual clock).
    public let changedAt: VirtualTime
    public let bankReferenceID: String?
    public let statusReason: String?
    public let comments: String?
    public let url: String?
    public internal(set) var state: State
    public internal(set) var attempts: [DeliveryAttempt]
    /// When the next attempt is due, while pending.
    public internal(set) var nextAttemptAt: VirtualTime?
}

/// One try at delivering a notification.
public struct DeliveryAttempt: Sendable, Equatable {
    public let number: Int
    public let at: VirtualTime
    public let outcome: DeliveryOutcome
    /// Asked for through the admin API, outside the retry schedule.
    public let manual: Bool
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
