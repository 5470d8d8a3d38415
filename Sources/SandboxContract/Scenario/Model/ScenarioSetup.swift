package import SandboxBank
package import SandboxSupport

/// Several scenarios layered into one setup, later over earlier: later rules are tried first,
/// a later account replaces one with the same id, and the last file that sets the default
/// timeline, seed, clock, webhook policy, chaos or faults wins (`[]` ends them). (the Scenario files guide's "Which rule
/// decided" tells users this order.)
package struct ScenarioSetup: Sendable {
    package var accounts: [Account] = []
    /// The rules, later scenarios' first, the built-in scenarios' last.
    package var rules: [Rule] { addedRules + (builtIn?.value.rules ?? []) }
    var defaultTimeline: [TimelineStepSpec] { addedTimeline?.steps ?? builtIn?.value.defaultTimeline ?? [] }
    /// The name of the scenario `defaultTimeline` comes from; nil when none set it.
    var defaultScenario: String? { addedTimeline?.scenario ?? builtIn?.value.defaultScenario }
    package var seed: UInt64 = 0
    package var clockMode: VirtualClock.Mode?
    package var clockStart: VirtualTime?
    var retrySchedule: [Duration]?
    package var webhookTimeout: Duration?
    package var sinks: [String: SinkScript] = [:]
    package var faults: [Fault] = []
    /// The webhook chaos rules in force (the last file's that has some), and as written.
    var chaos: [ChaosRuleSpec] = []
    package var chaosJSON: JSON = .array([])
    /// What the integration report judges by (the files' `report` keys, the last one's on top).
    package var reportThresholds = ReportThresholds.standard
    /// The payout fields that say what a payout is (the dialects' rule fields), which draws (fates,
    /// chaos, faults) and a payout's occurrence are keyed on (`Payout.contentKey`).
    package var contentFields: Set<String> = []

    /// The rules and the default timeline of the scenarios added.
    private var addedRules: [Rule] = []
    private var addedTimeline: (steps: [TimelineStepSpec], scenario: String)?
    /// The dialects' built-in scenarios, under every one added: read by the first reader of the
    /// rules (the bank's first payout, as a rule), not by a start (the Contributing guide's
    /// "Start-up budget"). Shared by the copies of this setup: read once.
    private let builtIn: Lazy<ScenarioSetup>?

    init(layering scenarios: [Scenario]) {
        builtIn = nil
        for scenario in scenarios { add(scenario) }
    }

    /// The built-in scenarios that `read` reads, layered in its order when first needed. They may
    /// say only their bank's rules and default timeline (``Scenario/saysOnlyItsBank``): the rest of a
    /// setup is read at once.
    package init(builtIn read: @escaping @Sendable () -> [Scenario]) {
        builtIn = Lazy {
            let scenarios = read()
            for scenario in scenarios {
                precondition(scenario.saysOnlyItsBank, "\(scenario.file) says more than its bank's rules and default timeline")
            }
            return ScenarioSetup(layering: scenarios)
        }
    }

    /// Puts `scenario` on top.
    package mutating func add(_ scenario: Scenario) {
        for account in scenario.accounts {
            accounts.removeAll { $0.id == account.id }
            accounts.append(account)
        }
        addedRules = scenario.rules + addedRules
        if let timeline = scenario.defaultTimeline { addedTimeline = (timeline, scenario.name) }
        if let seed = scenario.seed { self.seed = seed }
        if let mode = scenario.clockMode { clockMode = mode }
        if let start = scenario.clockStart { clockStart = start }
        if let retry = scenario.retrySchedule { retrySchedule = retry }
        if let timeout = scenario.webhookTimeout { webhookTimeout = timeout }
        sinks.merge(scenario.sinks) { $1 }
        if let faults = scenario.faults { self.faults = faults }
        reportThresholds = scenario.report.applied(to: reportThresholds)
        if let chaos = scenario.chaos {
            self.chaos = chaos
            chaosJSON = scenario.chaosJSON ?? .array([])
        }
    }

    /// The rules as the bank asks for them.
    var engine: RuleEngine {
        RuleEngine(rules: rules, defaultTimeline: defaultTimeline, defaultScenario: defaultScenario, seed: seed, contentFields: contentFields)
    }

    /// Points `configuration`'s timeline, declines, retries and webhook chaos at this setup. Its
    /// rules are read by the first payout's timeline, not now (a start does not read the built-in scenarios).
    package func configure(_ configuration: inout Bank.Configuration) {
        let engine = Lazy { [self] in self.engine }
        configuration.timeline = { engine.value.timeline(for: $0) }
        configuration.decline = { engine.value.decline(for: $0, occurrence: $1) }
        configuration.contentFields = contentFields
        if let retrySchedule { configuration.retrySchedule = retrySchedule }
        configuration.chaos = ChaosEngine(rules: chaos, seed: seed, identity: chaosJSON.serializedString(), contentFields: contentFields).policy
    }
}
