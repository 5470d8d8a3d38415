package import SandboxBank
import SandboxWire
package import SandboxSupport

// The scenario file format (the Scenario files guide): accounts (in each dialect's section), the bank's rules and
// default timeline, HTTP faults, the webhook policy, and the steps that make a file a test.

/// A loaded, validated scenario file.
package struct Scenario: Sendable {
    package var name: String
    /// The file it came from (for messages).
    package var file: String
    /// Fixes every random choice.
    package var seed: UInt64?
    var clockMode: VirtualClock.Mode?
    package var clockStart: VirtualTime?
    /// The accounts of every dialect's section.
    package var accounts: [Account] = []
    var rules: [Rule] = []
    /// The timeline of payouts no rule matches; nil keeps the current default.
    var defaultTimeline: [TimelineStepSpec]?
    /// HTTP faults (`faults`); nil leaves the faults in force as they are, `[]` ends them.
    package var faults: [Fault]?
    /// `app.ledger`: where the app under test shows its ledger (a URL, `${NAME}` expanded when
    /// read, or a file), reconciled with the bank after the last step.
    package var appLedger: String?
    /// `app.settled`: where the app under test says whether it has work pending (an http:// URL
    /// answering `{"pending": N}`, `${NAME}` expanded when read); nil when it says nothing.
    package var appSettled: String?
    var retrySchedule: [Duration]?
    var webhookTimeout: Duration?
    /// Webhook chaos (`webhooks.chaos`); nil leaves the chaos in force as it is, `[]` ends it.
    var chaos: [ChaosRuleSpec]?
    /// `webhooks.chaos` as written (what `GET /sandbox/webhooks/chaos` shows).
    var chaosJSON: JSON?
    /// The built-in sinks' scripts, by sink name.
    package var sinks: [String: SinkScript] = [:]
    /// `report`: the thresholds the integration report judges by; each nil keeps the one in force.
    package var report = ReportSettings()
    /// The steps, when the file is a test.
    package var steps: [Step] = []
    /// What each step names (its case, the payout or values it gives, what of earlier steps' it uses), in the steps' order
    /// (``links(ofStep:)``: none for a step made in code).
    var links: [StepLinks] = []

    /// What step `index` (from 0) names: none for a step made in code rather than read from a file.
    package func links(ofStep index: Int) -> StepLinks {
        links.indices.contains(index) ? links[index] : StepLinks()
    }
    /// The version the suite was written for (`written_for`; `SandboxVersion.unstated` when its file states none): what
    /// `"exercised": "all"` and the defaults a suite sees mean (the Changes guide).
    package var writtenFor = SandboxVersion.unstated
    /// Why the steps are expected to fail (`expect_failure`): the test passes when a step fails,
    /// and fails when every step passes.
    package var expectedFailure: String?
    /// Its steps wait for an app under test (`needs_app`): `test` runs it only with `--serve`
    /// (and the app started by `--exec` or by other means), and skips it otherwise.
    package var needsApp = false
    /// The space `cashout-sandbox explore` draws runs from (`explore`); nil: the standard one.
    package var explore: ExploreSpace?

    init(name: String, file: String) {
        self.name = name
        self.file = file
    }

    /// The top-level keys its file sets (`bank`, `faults`, `steps`...), as the loader read them.
    var keys: Set<String> = []

    /// Whether its file says nothing but its bank's rules and default timeline (and what names it): all a
    /// dialect's built-in scenario may say (`ScenarioSetup(builtIn:)`). Read from the keys the file
    /// sets, so a key added to the format is outside it until it is named here.
    var saysOnlyItsBank: Bool { keys.isSubset(of: ["$schema", "name", "description", "bank"]) }

    /// Marks it as a dialect's built-in scenario: its rules are magic values.
    package mutating func markBuiltIn() {
        for index in rules.indices { rules[index].origin.builtIn = true }
    }
}

/// A scenario's `report` key: `{"follow_up_within": "2m", "status_polling": {"limit": 20, "per": "1m"}}`.
package struct ReportSettings: Sendable {
    var followUpWithin: Duration?
    var pollingLimit: Int?
    var pollingPer: Duration?

    /// `thresholds` with what these set.
    func applied(to thresholds: ReportThresholds) -> ReportThresholds {
        ReportThresholds(followUpWithin: followUpWithin ?? thresholds.followUpWithin, pollingLimit: pollingLimit ?? thresholds.pollingLimit,
                         pollingPer: pollingPer ?? thresholds.pollingPer)
    }
}

/// "When a payout looks like this, the bank does that."
package struct Rule: Sendable {
    /// The key of a `when` (a bank rule's, a chaos rule's, a fault's `payout`) that tests which
    /// payout of its content a payout is (`Payout.occurrence`): 2 is the second create of 207.00
    /// to Ana Silva.
    package static let occurrence = "occurrence"

    package var name: String?
    /// Field name (wire name, or `merchant`, `dialect`) -> matcher; all must match.
    package var when: [String: Matcher]
    package var outcome: Outcome
    /// Where it is written, for saying which rule decided a payout's timeline.
    var origin = Origin()

    /// A rule's scenario and place in it.
    struct Origin: Sendable {
        /// The scenario's name.
        package var scenario = ""
        /// Its place among the scenario's rules (`bank.rules[index]`).
        package var index = 0
        /// Whether the scenario is a dialect's built-in one: its rules are the magic values.
        var builtIn = false
    }

    package enum Outcome: Sendable {
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
package struct TimelineStepSpec: Sendable, Equatable {
    package enum Delay: Sendable, Equatable {
        case fixed(Duration)
        case range(min: Duration, max: Duration)
        /// Whole business days (Saturday and Sunday skipped), at the same time of day.
        case businessDays(Int)
    }

    package var after: Delay
    package var step: TimelineStep
}

/// An HTTP fault: what it does, to which requests, and how often.
package struct Fault: Sendable {
    /// What the request must be (`when`: the request pattern of a verification, `endpoint`
    /// its shorthand for `method` and `path`); nil for any request to a payout API.
    package var request: RequestPattern?
    /// `when.account`: the account the request names.
    package var account: Matcher?
    /// `when.payout`: field (or `merchant`, `dialect`) -> matcher, tested on the payout the request
    /// names; empty: any request.
    package var payout: [String: Matcher] = [:]
    /// What it does (its kind, with what that carries).
    package var action: FaultKind.Action
    /// Every Nth matching request (the Nth, 2Nth...), or nil.
    package var every: Int?
    /// The chance per matching request, seeded, or nil.
    package var rate: Double?
    /// At most this many times (`times`), as MockServer's `remainingTimes`; nil: no limit.
    package var times: Int?
}

/// A built-in sink's script (`webhooks.sinks.NAME`): its answers, and whether it acts as a small
/// webhook handler that checks signatures and drops duplicates.
package struct SinkScript: Sendable, Equatable {
    /// One HTTP status per request it processes, then 200.
    package var answers: [Int]
    /// Refuses (401) a notification whose signature (D24's `control`, PayoutService's header) is wrong.
    package var checkSignatures: Bool
    /// Answers 200 to a notification it processed already, without processing it again.
    package var deduplicate: Bool

    package init(answers: [Int] = [], checkSignatures: Bool = false, deduplicate: Bool = false) {
        self.answers = answers
        self.checkSignatures = checkSignatures
        self.deduplicate = deduplicate
    }
}

/// A webhook chaos rule (`webhooks.chaos[i]`): to which notifications, how often, and what.
struct ChaosRuleSpec: Sendable {
    package var name: String?
    /// Field name (a payout field, `merchant`, `dialect` or the notification's `status`) -> matcher.
    package var when: [String: Matcher]
    /// Every Nth notification it matches; nil with `rate` nil: every one.
    package var every: Int?
    /// The chance per notification it matches, seeded.
    package var rate: Double?
    package var kind: ChaosKind
    /// `delayed`: the delay; a copy: how long after what sets it off; `out_of_order`: the longest hold.
    var delay: Delay

    /// A duration, or a range drawn per notification from the seed.
    package enum Delay: Sendable, Equatable {
        case fixed(Duration)
        case range(min: Duration, max: Duration)
    }
}
