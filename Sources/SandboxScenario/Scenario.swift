import SandboxBank
import SandboxJSON

// The scenario file format (the Scenario files guide): accounts (in each dialect's section), the bank's rules and
// default timeline, HTTP faults, the webhook policy, and the steps that make a file a test.

/// A loaded, validated scenario file.
public struct Scenario: Sendable {
    public var name: String
    /// The file it came from (for messages).
    public var file: String
    /// Fixes every random choice.
    public var seed: UInt64?
    public var clockMode: VirtualClock.Mode?
    public var clockStart: VirtualTime?
    /// The accounts of every dialect's section.
    public var accounts: [Account] = []
    public var rules: [Rule] = []
    /// The timeline of payouts no rule matches; nil keeps the current default.
    public var defaultTimeline: [TimelineStepSpec]?
    public var faults: [Fault] = []
    /// `app.ledger`: where the app under test shows its ledger (a URL, `${NAME}` expanded when
    /// read, or a file), reconciled with the bank after the last step.
    public var appLedger: String?
    public var retrySchedule: [Duration]?
    public var webhookTimeout: Duration?
    /// Webhook chaos (`webhooks.chaos`); nil leaves the chaos in force as it is, `[]` ends it.
    public var chaos: [ChaosRuleSpec]?
    /// `webhooks.chaos` as written (what `GET /sandbox/webhooks/chaos` shows).
    public var chaosJSON: JSON?
    /// The built-in sinks' scripts, by sink name.
    public var sinks: [String: SinkScript] = [:]
    /// `report`: the thresholds the integration report judges by; each nil keeps the one in force.
    public var report = ReportSettings()
    /// The steps, when the file is a test.
    public var steps: [Step] = []
    /// Why the steps are expected to fail (`expect_failure`): the test passes when a step fails,
    /// and fails when every step passes.
    public var expectedFailure: String?
    /// Its steps wait for an app under test (`needs_app`): `test` runs it only with `--serve`
    /// (and the app started by `--exec` or by other means), and skips it otherwise.
    public var needsApp = false
    /// The space `cashout-sandbox explore` draws runs from (`explore`); nil: the standard one.
    public var explore: ExploreSpace?

    public init(name: String, file: String) {
        self.name = name
        self.file = file
    }

    /// Marks it as a dialect's built-in scenario: its rules are magic values.
    public mutating func markBuiltIn() {
        for index in rules.indices { rules[index].origin.builtIn = true }
    }
}

/// A scenario's `report` key: `{"follow_up_within": "2m", "status_polling": {"limit": 20, "per": "1m"}}`.
public struct ReportSettings: Sendable {
    public var followUpWithin: Duration?
    public var pollingLimit: Int?
    public var pollingPer: Duration?

    /// `thresholds` with what these set.
    public func applied(to thresholds: ReportThresholds) -> ReportThresholds {
        ReportThresholds(followUpWithin: followUpWithin ?? thresholds.followUpWithin, pollingLimit: pollingLimit ?? thresholds.pollingLimit,
                         pollingPer: pollingPer ?? thresholds.pollingPer)
    }
}

/// "When a payout looks like this, the bank does that."
public struct Rule: Sendable {
    public var name: String?
    /// Field name (wire name, or `merchant`, `dialect`) -> matcher; all must match.
    public var when: [String: Matcher]
    public var outcome: Outcome
    /// Where it is written, for saying which rule decided a payout's timeline.
    public var origin = Origin()

    /// A rule's scenario and place in it.
    public struct Origin: Sendable {
        /// The scenario's name.
        public var scenario = ""
        /// Its place among the scenario's rules (`bank.rules[index]`).
        public var index = 0
        /// Whether the scenario is a dialect's built-in one: its rules are the magic values.
        public var builtIn = false
    }

    public enum Outcome: Sendable {
        /// The payout is refused at creation with the dialect's error. (First: listed last, its
        /// payload's pointers carried the enum's tag bits, and LeakSanitizer in `.ci/fuzz` took
        /// the built-in scenario's declines for leaks; case 0 has no tag bits.)
        case decline(Decline)
        /// One timeline.
        case timeline([TimelineStepSpec])
        /// A timeline chosen at random by weight (seeded).
        case weighted([(weight: Int, steps: [TimelineStepSpec])])
    }
}

/// A timeline step as written: its delay may be a range or business days, resolved per payout.
public struct TimelineStepSpec: Sendable, Equatable {
    public enum Delay: Sendable, Equatable {
        case fixed(Duration)
        case range(min: Duration, max: Duration)
        /// Whole business days (Saturday and Sunday skipped), at the same time of day.
        case businessDays(Int)
    }

    public var after: Delay
    public var step: TimelineStep
}

/// An HTTP fault: what it does, to which requests, and how often.
public struct Fault: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Answer late: fixed or a range.
        case latency(min: Duration, max: Duration)
        /// Answer with this status and body instead of handling the request.
        case error(status: Int, body: String)
        /// Close the connection without handling the request or answering.
        case close
        /// Handle the request, then, if it committed (2xx), close without answering: the response is lost.
        case dropAfterCommit
    }

    /// What the request must be (`when`: the request pattern of a verification, `endpoint`
    /// its shorthand for `method` and `path`); nil for any request to a payout API.
    public var request: RequestPattern?
    public var kind: Kind
    /// Every Nth matching request (the Nth, 2Nth...), or nil.
    public var every: Int?
    /// The chance per matching request, seeded, or nil.
    public var rate: Double?
    /// At most this many times (`times`), as MockServer's `remainingTimes`; nil: no limit.
    public var times: Int?
}

/// A built-in sink's script (`webhooks.sinks.NAME`): its answers, and whether it acts as a small
/// webhook handler that checks signatures and drops duplicates.
public struct SinkScript: Sendable, Equatable {
    /// One HTTP status per request it processes, then 200.
    public var answers: [Int]
    /// Refuses (401) a notification whose signature (D24's `control`, PayoutService's header) is wrong.
    public var checkSignatures: Bool
    /// Answers 200 to a notification it processed already, without processing it again.
    public var deduplicate: Bool

    public init(answers: [Int] = [], checkSignatures: Bool = false, deduplicate: Bool = false) {
        self.answers = answers
        self.checkSignatures = checkSignatures
        self.deduplicate = deduplicate
    }
}

/// A webhook chaos rule (`webhooks.chaos[i]`): to which notifications, how often, and what.
public struct ChaosRuleSpec: Sendable {
    public var name: String?
    /// Field name (a payout field, `merchant`, `dialect` or the notification's `status`) -> matcher.
    public var when: [String: Matcher]
    /// Every Nth notification it matches; nil with `rate` nil: every one.
    public var every: Int?
    /// The chance per notification it matches, seeded.
    public var rate: Double?
    public var kind: ChaosKind
    /// `delayed`: the delay; a copy: how long after what sets it off; `out_of_order`: the longest hold.
    public var delay: Delay

    /// A duration, or a range drawn per notification from the seed.
    public enum Delay: Sendable, Equatable {
        case fixed(Duration)
        case range(min: Duration, max: Duration)
    }
}
