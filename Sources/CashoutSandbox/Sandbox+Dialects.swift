import SandboxBank
import SandboxD24
import SandboxDialect
import SandboxScenario

extension Sandbox {
    /// The APIs a sandbox serves unless its configuration names others (new values each time:
    /// a dialect keeps per-sandbox caches, such as prepared signing keys).
    public static var standardDialects: [any Dialect] { [D24Dialect()] }

    /// The standard dialects' built-in scenarios, loaded once.
    static let standardSetup = standardDialects.builtInSetup

    /// What scenario rules may test in the standard dialects (for loading a scenario file
    /// before there is a sandbox).
    public static let standardRuleFields = standardDialects.ruleFields

    /// How to read the bank's binary form of `version`: in version 1, payouts named no
    /// dialect, D24 being the only one.
    static func bankFormat(version: Int) -> BankFormat {
        BankFormat(version: version, dialectOfVersion1: D24Dialect.name)
    }
}

extension Sandbox.Configuration {
    /// What a scenario rule's `when` may test in this configuration's dialects (for loading
    /// scenario files: `ScenarioLoader.load(file:ruleFields:)`).
    public var ruleFields: Set<String> { dialects.ruleFields }
}

extension [any Dialect] {
    /// The request fields their scenario rules may test.
    var ruleFields: Set<String> { reduce(into: []) { $0.formUnion($1.ruleFields) } }

    /// Their built-in scenarios, layered in their order.
    var builtInSetup: ScenarioSetup {
        let fields = ruleFields
        return ScenarioSetup(layering: compactMap { dialect in
            dialect.builtInScenarioText.map { text in
                do {
                    return try ScenarioLoader.load([UInt8](text.utf8), file: "the built-in scenario of \(dialect.name)", ruleFields: fields)
                } catch {
                    preconditionFailure("\(error)")
                }
            }
        })
    }

    /// The dialect of that name, by which a payout's notifications are rendered.
    var byName: [String: any Dialect] { Dictionary(map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }) }
}
