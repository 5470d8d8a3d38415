import CashoutSandbox
import SandboxWire
import SandboxSupport

/// The app's own word on whether it has work pending (the scenario's `app.settled`, the Testing
/// your app guide, "Saying when your app is settled"): a URL the app serves beside its ledger that
/// answers `{"pending": N}`, N counting its requests queued or in flight, its retries scheduled and
/// the follow-ups it has not made yet. Where the app offers it, a clock stop ends when it says 0
/// (and the sandbox has nothing of its in flight), instead of a real-time guess (``AppTurns``).
///
/// Asked only while nothing of the app's is in flight in the sandbox, then again every 5 ms, the
/// gap doubling to 50 ms while the app does nothing the sandbox sees; a 0 counts only when nothing
/// of the app's began while it was asked. An app that does not serve it (refused, not 200, or not
/// `{"pending": N}`) is not asked again during the same wait: the clock guesses, as without it. Asked
/// through ``AppAnswers``: a value with no I/O of its own.
struct AppSettled {
    /// What the app said, as a wait reads it.
    enum Word: Equatable {
        /// Nothing asked: the sandbox has a request or a notification of the app's in flight.
        case busy
        /// It has this much work pending (0: settled).
        case pending(Int)
        /// It does not say (not served, or not in its form): guess instead.
        case notOffered
    }

    /// The URL, `${NAME}` expanded.
    let url: String
    /// Who answers it.
    private let answers: any AppAnswers
    /// An answer not in its form, to note once (``takeUnreadable()``).
    private var unreadable: String?
    private var noted = false
    private var declined = false
    private var last: (pending: Int, turn: Int, at: Int64)?
    private var gap: Int64 = Self.firstGap
    private static let firstGap: Int64 = 5_000_000
    private static let longestGap: Int64 = 50_000_000
    /// How long an answer may take.
    static let timeout = Duration.seconds(2)

    init(url: String, answers: any AppAnswers) {
        self.url = url
        self.answers = answers
    }

    /// What to note of an answer not in its form, the first time only.
    mutating func takeUnreadable() -> String? {
        guard !noted, let unreadable else { return nil }
        noted = true
        return unreadable
    }

    /// A wait begins: the app is asked afresh.
    mutating func beginWait() {
        declined = false
        last = nil
        gap = Self.firstGap
    }

    /// What the app says now (asked, or as it said less than a gap ago while nothing it did changed).
    mutating func word(_ activity: AppActivity, now: Int64) -> Word {
        guard !declined else { return .notOffered }
        guard activity.inFlight == 0 else {
            gap = Self.firstGap
            return .busy
        }
        let turn = activity.turn
        if let last, last.turn == turn, now - last.at < gap { return .pending(last.pending) }
        if let last, last.turn != turn { gap = Self.firstGap }
        guard let pending = ask() else {
            declined = true
            return .notOffered
        }
        // Something of the app's began while it answered: its 0 may be older than that.
        guard activity.turn == turn, activity.inFlight == 0 else { return .busy }
        if last != nil { gap = min(gap * 2, Self.longestGap) }
        last = (pending, turn, now)
        return .pending(pending)
    }

    /// What the app says (``AppAnswers/settled(at:)``): N of `{"pending": N}`, nil when it does not say.
    private mutating func ask() -> Int? {
        switch answers.settled(at: url) {
        case .pending(let pending): return pending
        case .notServed: return nil
        case .unreadable(let text):
            if unreadable == nil {
                unreadable = "app.settled \(url) answered \(JSON.string(text).serializedString()), expected {\"pending\": N} (N a whole "
                    + "number, 0 when the app has no work pending); the clock guessed from real-time quiet instead"
            }
            return nil
        }
    }
}
