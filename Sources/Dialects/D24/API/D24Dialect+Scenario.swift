import SandboxBank
package import SandboxContract

/// What D24 adds to scenario files: its create fields for rules, its declines, its built-in
/// scenario with the magic values (`scenarios/default.json`), and its creates for steps
/// (`D24ScenarioCreate.swift`).
extension D24Dialect: ScenarioDialect {
    /// The codes a scenario's timeline may give a D24 cashout: those of D24's "API Codes" page, and no word code.
    /// A reversal after completion is 826 (`WITHDRAWAL_REVERSED`).
    static let rejectionCodes = RejectionCodes(listed: D24RejectionCodes.names.keys.sorted().map { (String($0), D24RejectionCodes.names[$0]!) },
                                               lateRejection: "826")

    /// The create request's fields (wire names of D24's "Cashout Creation Endpoint") for rules, and
    /// declines with the codes of D24's "API Codes" page (100–999) and a KYC `reason` and `reason_code`.
    package var scenarioVocabulary: ScenarioVocabulary {
        ScenarioVocabulary(dialect: Self.name, format: Self.scenarioFormat, rejectionCodes: Self.rejectionCodes,
                           declineChecks: [Self.name: Self.check])
    }

    @Sendable private static func check(_ decline: Decline) -> (key: String, expected: String)? {
        if !(Int(decline.code).map { (100 ... 999).contains($0) } ?? false) { return ("code", "expected a whole number from 100 to 999") }
        if let code = decline.details["reason_code"], !(Int(code).map { (0 ... 99999).contains($0) } ?? false) {
            return ("reason_code", "expected a whole number from 0 to 99999")
        }
        return nil
    }

    package var builtInScenarioText: String? { Self.builtInScenarioText }

    /// The built-in default bank with the magic values: `scenarios/default.json`, the one copy,
    /// compiled in (`Resources/default.json` links to it) so that the binary needs no file to start.
    package static let builtInScenarioText = String(decoding: PackageResources.default_json, as: UTF8.self)
}
