package import SandboxSupport
/// A notification of one status change, and its delivery attempts.
///
/// What it carries is neutral; the dialect of its payout renders it in its own wire format and
/// signature when it is sent (`Dialect.notification`).
package struct StatusNotification: Sendable, Equatable {
    /// Where delivery stands.
    package enum State: Sendable, Equatable {
        /// Waiting for its next attempt.
        case pending
        /// A 2xx answer was received.
        case delivered
        /// Every attempt failed.
        case exhausted
        /// No callback URL: journaled, never sent.
        case noURL
    }

    // A bank keeps millions, so this is 64 bytes: what most never have (a chaos plan, a second
    // attempt) is out of line, and the small fields fill the first attempt's tail (stored
    // properties are laid out in the order they are declared).

    /// The payout's part that notifications share, as it was when the status changed (the
    /// request's fields, where it is sent, the bank's reference): one reference per notification.
    let payout: Payout.Shared
    /// When it changed (virtual clock).
    package let changedAt: VirtualTime
    /// Its chaos plan and its attempts after the first; nil when it has neither.
    private var extra: OutOfLine<Extra>?
    /// `nextAttemptAt` in milliseconds, `Int64.min` for none (8 bytes, not 16).
    private var nextAttemptMilliseconds: Int64
    private var firstAttempt: DeliveryAttempts.Kept?
    /// The status the payout changed to.
    package let status: PayoutStatus
    package internal(set) var state: State
    /// The copy being sent is forged (`ChaosKind.forged`): its dialect signs it with a wrong key.
    /// Only ever set on the copy handed to the sender.
    package internal(set) var forged = false
    /// `id`: a bank numbers its notifications from 1, far fewer than 2^31.
    private let number: Int32

    private struct Extra: Sendable {
        let chaos: ChaosPlan?
        let laterAttempts: [DeliveryAttempts.Kept]
    }

    package var id: Int { Int(number) }
    package internal(set) var attempts: DeliveryAttempts {
        get { DeliveryAttempts(first: firstAttempt, rest: extra?.value.laterAttempts ?? []) }
        set {
            firstAttempt = newValue.first
            setExtra(chaos: chaos, laterAttempts: newValue.rest)
        }
    }
    /// When the next attempt is due, while pending.
    package internal(set) var nextAttemptAt: VirtualTime? {
        get { nextAttemptMilliseconds == .min ? nil : VirtualTime(milliseconds: nextAttemptMilliseconds) }
        set { nextAttemptMilliseconds = newValue?.milliseconds ?? .min }
    }
    package var payoutID: Int { payout.id }
    /// The API of the payout, which renders the notification.
    package var dialect: String { payout.origin.dialect }
    package var account: String { payout.origin.account }
    package var reference: String? { payout.reference }
    package var bankReference: String? { payout.bankReference }
    package var statusDetail: String? { payout.statusDetail }
    package var url: String? { payout.callbackURL }
    /// The payout's request fields, by its API's names.
    package var fields: Fields { payout.fields }
    /// What webhook chaos does to it, once decided (nil: nothing, or not decided yet).
    package internal(set) var chaos: ChaosPlan? {
        get { extra?.value.chaos }
        set { setExtra(chaos: newValue, laterAttempts: extra?.value.laterAttempts ?? []) }
    }

    private mutating func setExtra(chaos: ChaosPlan?, laterAttempts: [DeliveryAttempts.Kept]) {
        extra = chaos == nil && laterAttempts.isEmpty ? nil : OutOfLine(Extra(chaos: chaos, laterAttempts: laterAttempts))
    }

    /// A notification of `payout`'s change to `status`, pending when it has somewhere to go.
    package init(id: Int, of payout: Payout.Shared, status: PayoutStatus, changedAt: VirtualTime, state: State? = nil,
         attempts: DeliveryAttempts = DeliveryAttempts(), nextAttemptAt: VirtualTime?? = nil, chaos: ChaosPlan? = nil) {
        self.payout = payout
        number = Int32(id)
        self.status = status
        self.changedAt = changedAt
        self.state = state ?? (payout.callbackURL == nil ? .noURL : .pending)
        nextAttemptMilliseconds = (nextAttemptAt ?? (payout.callbackURL == nil ? nil : changedAt))?.milliseconds ?? .min
        firstAttempt = attempts.first
        setExtra(chaos: chaos, laterAttempts: attempts.rest)
    }

    /// The attempts the retry schedule made (not redeliveries asked for by hand, nor chaos copies).
    @inline(__always) package var scheduledAttempts: Int {
        // Read from where the attempts are kept: `attempts` builds a collection of them (an
        // event's staleness is checked with this for every delivery).
        guard let first = firstAttempt else { return 0 }
        let later = extra?.value.laterAttempts.reduce(0) { count, kept in kept.isScheduled ? count + 1 : count } ?? 0
        return (first.isScheduled ? 1 : 0) + later
    }

    /// The number of its first attempt of its own (not a copy), if it made one.
    var firstOwnAttempt: Int? { attempts.first { $0.chaos?.kind.isCopy != true }?.number }

    package static func == (lhs: StatusNotification, rhs: StatusNotification) -> Bool {
        let (a, b) = (lhs.payout, rhs.payout)
        return lhs.id == rhs.id && lhs.status == rhs.status && lhs.changedAt == rhs.changedAt
            && (a === b || (a.id == b.id && a.origin == b.origin && a.reference == b.reference
                            && a.bankReference == b.bankReference && a.statusDetail == b.statusDetail && a.callbackURL == b.callbackURL
                            && a.fields == b.fields))
            && lhs.state == rhs.state && lhs.attempts == rhs.attempts && lhs.nextAttemptAt == rhs.nextAttemptAt
            && lhs.chaos == rhs.chaos && lhs.forged == rhs.forged
    }
}

/// One try at delivering a notification.
public struct DeliveryAttempt: Sendable, Equatable {
    /// When it was made, in virtual time.
    public let at: VirtualTime
    /// Shared with the attempts that got the same answer (`InternTable`).
    private let answer: OutOfLine<DeliveryOutcome>
    private let mark: OutOfLine<ChaosMark>?
    private let place: Int32
    /// Asked for through the admin API, outside the retry schedule.
    public let manual: Bool

    /// Its place among the notification's attempts, from 1.
    public var number: Int { Int(place) }
    /// What the receiver answered (`status`), or why there was no answer (`error`).
    public var outcome: DeliveryOutcome { answer.value }
    /// What webhook chaos did to it; nil for a plain attempt.
    package var chaos: ChaosMark? { mark?.value }

    fileprivate init(number: Int, at: VirtualTime, outcome: OutOfLine<DeliveryOutcome>, manual: Bool, mark: OutOfLine<ChaosMark>?) {
        place = Int32(clamping: number)
        self.at = at
        answer = outcome
        self.manual = manual
        self.mark = mark
    }

    /// Whether two attempts are the same: number, time, outcome, whether manual, and what chaos did to them.
    ///
    /// - Parameters:
    ///   - lhs: An attempt.
    ///   - rhs: Another attempt.
    /// - Returns: True when they agree in all of these.
    public static func == (lhs: DeliveryAttempt, rhs: DeliveryAttempt) -> Bool {
        lhs.number == rhs.number && lhs.at == rhs.at && lhs.outcome == rhs.outcome && lhs.manual == rhs.manual && lhs.chaos == rhs.chaos
    }

    /// A retry: an attempt of the retry schedule after its first.
    package func isRetry(in notification: StatusNotification) -> Bool {
        isScheduled && notification.attempts.prefix(number - 1).contains(where: \.isScheduled)
    }

    /// Made by the retry schedule: not asked for by hand, not a chaos copy.
    var isScheduled: Bool { Self.isScheduled(manual: manual, chaos: chaos) }

    static func isScheduled(manual: Bool, chaos: ChaosMark?) -> Bool { !manual && chaos?.kind.isCopy != true }
}

extension DeliveryAttempts.Kept {
    /// `DeliveryAttempt.isScheduled`, read where the attempt is kept.
    var isScheduled: Bool { DeliveryAttempt.isScheduled(manual: manual, chaos: mark?.value) }
}

/// A notification's delivery attempts, oldest first, numbered from 1. Most notifications make
/// just one, which a notification keeps inline: an array of one would cost an allocation for
/// each of a million notifications.
package struct DeliveryAttempts: RandomAccessCollection, Sendable, Equatable {
    /// An attempt as kept: its number is its place.
    struct Kept: Sendable {
        let at: VirtualTime
        let answer: OutOfLine<DeliveryOutcome>
        let mark: OutOfLine<ChaosMark>?
        let manual: Bool
    }

    fileprivate private(set) var first: Kept?
    fileprivate private(set) var rest: [Kept] = []

    package init() {}

    fileprivate init(first: Kept?, rest: [Kept]) {
        self.first = first
        self.rest = rest
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int {
        guard case .some = first else { return 0 }  // matched, not compared with nil: that copied the attempt
        return 1 + rest.count
    }

    package subscript(position: Int) -> DeliveryAttempt {
        let kept = position == 0 ? first! : rest[position - 1]
        return DeliveryAttempt(number: position + 1, at: kept.at, outcome: kept.answer, manual: kept.manual, mark: kept.mark)
    }

    /// Adds an attempt: its number is `count + 1`. `outcome` is shared with the attempts that got
    /// the same answer (`InternTable`).
    package mutating func append(at: VirtualTime, outcome: OutOfLine<DeliveryOutcome>, manual: Bool, chaos: ChaosMark? = nil) {
        let kept = Kept(at: at, answer: outcome, mark: chaos.map(OutOfLine.init), manual: manual)
        if first == nil { first = kept } else { rest.append(kept) }
    }

    package static func == (lhs: DeliveryAttempts, rhs: DeliveryAttempts) -> Bool {
        lhs.elementsEqual(rhs)
    }
}

/// What the receiver answered, or why there was no answer.
public struct DeliveryOutcome: Sendable, Hashable {
    /// The HTTP status, when a response arrived.
    public var status: Int?
    /// Why no response arrived (refused, timed out...).
    public var error: String?
    /// The start of the response body, for the journal.
    public var body: String?

    /// An outcome: a response's status and body, or why there was none.
    ///
    /// - Parameters:
    ///   - status: The HTTP status, when a response arrived; nil by default.
    ///   - error: Why no response arrived; nil by default.
    ///   - body: The start of the response body; nil by default.
    public init(status: Int? = nil, error: String? = nil, body: String? = nil) {
        self.status = status
        self.error = error
        self.body = body
    }

    /// Delivered: any 2xx status.
    public var succeeded: Bool { status.map { (200 ..< 300).contains($0) } ?? false }
}
