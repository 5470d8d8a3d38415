/// What a dialect adds to the scenario format's declarations (`ScenarioFormat`, printed as
/// scenarios/schema.json by `cashout-sandbox schema`): its definitions, the fields its rules
/// test, its steps, what its declines say, its status words and its accounts' section.
///
/// ```swift
/// var format = ScenarioVocabulary.Format()
/// format.ruleFields = [("reference", "Echo: matches the payout's reference.")]
/// format.steps = [("echo_ping", .ref("echoPing", "Echo: pings the API."))]
/// format.definitions = [("echoPing", .object("A ping.", [("times", .integer(1 ... 10))]))]
/// ```
extension ScenarioVocabulary {
    package struct Format: Sendable {
        /// Definitions it adds (`#/$defs/NAME`): its accounts', its steps' bodies...
        var definitions: [(String, KeySpec)] = []
        /// The fields its rules test, each with what it adds to the field's description (nil:
        /// nothing, a field another dialect describes). A field several dialects test gets each
        /// one's text, in the dialects' order.
        var ruleFields: [(String, String?)] = []
        /// Its step actions, each as a step's property: its description and its body's schema.
        var steps: [(String, KeySpec)] = []
        /// Those of its steps whose `expect` has a shape of its own, with that shape.
        var stepExpectations: [(String, KeySpec)] = []
        /// The keys its declines may hold besides `code` and `message`.
        var declineKeys: [(String, KeySpec)] = []
        /// What a rule's decline must be when the rule is for it (`ScenarioFormat.declineCheck`).
        var ruleChecks: [KeySpec] = []
        /// Its own words for the statuses of its payouts, in lifecycle order.
        var statusWords: [String] = []
        /// Each dialect's `statusWords`, in the dialects' order (a merged vocabulary's).
        var statusWordGroups: [[String]] = []
        /// Its accounts' top-level section (`merchants`), as the `AccountKind` declares it.
        var accountSections: [(String, KeySpec)] = []

        package init(definitions: [(String, KeySpec)] = [], ruleFields: [(String, String?)] = [], steps: [(String, KeySpec)] = [],
                    stepExpectations: [(String, KeySpec)] = [], declineKeys: [(String, KeySpec)] = [], ruleChecks: [KeySpec] = [],
                    statusWords: [String] = []) {
            self.definitions = definitions
            self.ruleFields = ruleFields
            self.steps = steps
            self.stepExpectations = stepExpectations
            self.declineKeys = declineKeys
            self.ruleChecks = ruleChecks
            self.statusWords = statusWords
            statusWordGroups = statusWords.isEmpty ? [] : [statusWords]
        }

        /// Both, this one's first.
        func merging(_ other: Format) -> Format {
            var merged = self
            merged.definitions += other.definitions.filter { name, _ in !definitions.contains { $0.0 == name } }
            merged.ruleFields += other.ruleFields
            merged.steps += other.steps
            merged.stepExpectations += other.stepExpectations
            merged.declineKeys += other.declineKeys.filter { key, _ in !declineKeys.contains { $0.0 == key } }
            merged.ruleChecks += other.ruleChecks
            merged.statusWords += other.statusWords.filter { !statusWords.contains($0) }
            merged.statusWordGroups += other.statusWordGroups
            merged.accountSections += other.accountSections
            return merged
        }
    }
}
