import Glibc
import SandboxBank
import SandboxSupport

/// Reads scenario files: JSON, checked against the format of the Scenario files guide. Every refusal names the
/// file, the JSON path and what was expected; unknown keys are refusals too.
///
/// ```swift
/// let scenario = try ScenarioLoader.load(file: "scenarios/late-reversal-826.json", vocabulary: Sandbox.standardVocabulary)
/// ```
///
/// What the dialects add (request fields rules test, account sections, declines) comes in
/// `vocabulary`: this module knows none of them.
package enum ScenarioLoader {
    /// Every top-level key, in the order messages list them and files are written.
    package static func topLevelKeys(_ vocabulary: ScenarioVocabulary) -> [String] {
        ScenarioFormat.topLevel(vocabulary).map(\.0)
    }

    /// Loads the file at `path`.
    package static func load(file path: String, vocabulary: ScenarioVocabulary) throws(ScenarioError) -> Scenario {
        guard let bytes = readFile(path) else {
            throw ScenarioError(file: path, path: "", expected: "a readable file")
        }
        return try load(bytes, file: path, vocabulary: vocabulary)
    }

    /// Loads a scenario from its bytes; `file` names it in messages.
    package static func load(_ bytes: [UInt8], file: String, vocabulary: ScenarioVocabulary) throws(ScenarioError) -> Scenario {
        let json: JSON
        do { json = try JSON.parse(bytes, duplicateKeys: false) } catch {
            throw ScenarioError(file: file, path: "", expected: "invalid JSON: \(error)")
        }
        let root = ScenarioNode(value: json, path: "", file: file)
        let sections = vocabulary.accountSections.keys.sorted()
        var errors = ScenarioErrors()
        guard let top = root.object(allowed: topLevelKeys(vocabulary), errors: &errors) else {
            try errors.throwIfAny()
            return Scenario(name: defaultName(file), file: file)  // not reached: a value that is no object is an error
        }
        let name = top["name"].flatMap { node in errors.recover { () throws(ScenarioError) in try node.string() } }
        _ = top["$schema"].flatMap { node in errors.recover { () throws(ScenarioError) in try node.string() } }  // unread, but a URI
        var scenario = Scenario(name: name ?? defaultName(file), file: file)
        scenario.keys = Set(top.keys)
        if let seed = top["seed"] {
            errors.recover { () throws(ScenarioError) in
                guard case .number(let text) = seed.value, let value = UInt64(text) else {
                    throw seed.failShowingValue("expected a whole number ≥ 0")
                }
                scenario.seed = value
            }
        }
        if let clock = top["clock"] { errors.recover { () throws(ScenarioError) in try readClock(clock, into: &scenario) } }
        if let reason = top["expect_failure"] {
            errors.recover { () throws(ScenarioError) in scenario.expectedFailure = try reason.nonEmptyString() }
        }
        if let needsApp = top["needs_app"] {
            errors.recover { () throws(ScenarioError) in
                guard top["steps"] != nil else { throw needsApp.fail("expected only in a file with \"steps\"") }
                scenario.needsApp = try needsApp.bool()
            }
        }
        for section in sections {
            guard let node = top[section], let read = vocabulary.accountSections[section] else { continue }
            scenario.accounts += errors.each(node) { (node) throws(ScenarioError) in try read(node) }
        }
        if let bank = top["bank"] { readBank(bank, into: &scenario, vocabulary: vocabulary, errors: &errors) }
        if let faults = top["faults"] { scenario.faults = errors.each(faults, readFault) }
        if let webhooks = top["webhooks"] {
            errors.recover { () throws(ScenarioError) in try readWebhooks(webhooks, into: &scenario, vocabulary: vocabulary) }
        }
        if let app = top["app"] { errors.recover { () throws(ScenarioError) in try readApp(app, into: &scenario) } }
        if let explore = top["explore"] {
            errors.recover { () throws(ScenarioError) in
                guard top["steps"] != nil else { throw explore.fail("expected only in a file with \"steps\"") }
                scenario.explore = try readExplore(explore, vocabulary)
            }
        }
        if let report = top["report"] { errors.recover { () throws(ScenarioError) in scenario.report = try readReport(report) } }
        if let steps = top["steps"] { (scenario.steps, scenario.links) = readSteps(steps, vocabulary, errors: &errors) }
        if let version = top["written_for"] {
            errors.recover { () throws(ScenarioError) in
                guard top["steps"] != nil else { throw version.fail("expected only in a file with \"steps\"") }
                guard let value = SandboxVersion(try version.string()) else {
                    throw version.failShowingValue("expected a version such as \"\(SandboxVersion.current)\" (MAJOR.MINOR.PATCH)")
                }
                guard value >= .earliest, value <= .current else {
                    let later = value > .current ? ": a suite written for a later one needs that cashout-sandbox or a later one" : ""
                    throw version.failShowingValue("expected a version from \(SandboxVersion.earliest) to \(SandboxVersion.current), this "
                                                   + "build's" + later)
                }
                scenario.writtenFor = value
            }
        }
        if scenario.appLedger == nil, let steps = top["steps"], case .array(let list) = steps.value {
            for (index, step) in list.enumerated() {
                guard case .object(let members) = step, let action = members["expect_reconciled"] else { continue }
                guard case .object(let body) = action, body["ledger"] != nil else {
                    errors.recover { () throws(ScenarioError) in
                        throw ScenarioNode(value: step, path: "steps[\(index)]", file: file).child("expect_reconciled", action)
                            .fail("expected \"ledger\" here or an \"app\": {\"ledger\": URL or file} section to read the app's ledger from")
                    }
                    continue
                }
            }
        }
        if let reason = top["expect_failure"], top["steps"] == nil {
            errors.recover { () throws(ScenarioError) in throw reason.fail("expected only in a file with \"steps\"") }
        }
        try errors.throwIfAny()
        return scenario
    }

    private static func defaultName(_ file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        return base.hasSuffix(".json") ? String(base.dropLast(5)) : base
    }

    private static func readClock(_ node: ScenarioNode, into scenario: inout Scenario) throws(ScenarioError) {
        let clock = try node.object(allowed: ScenarioFormat.Keys.clock)
        if let mode = clock["mode"] {
            guard let value = VirtualClock.Mode(rawValue: try mode.string()) else { throw mode.failShowingValue("expected \"real\" or \"manual\"") }
            scenario.clockMode = value
        }
        if let start = clock["start"] {
            guard let time = VirtualTime(iso8601: try start.string()) else {
                throw start.failShowingValue("expected a UTC time such as \"2026-01-05T09:00:00Z\"")
            }
            scenario.clockStart = time
        }
    }

    /// `report`: `{"follow_up_within": "2m", "status_polling": {"limit": 20, "per": "1m"}}`, each part optional.
    private static func readReport(_ node: ScenarioNode) throws(ScenarioError) -> ReportSettings {
        let report = try node.object(allowed: ScenarioFormat.Keys.report)
        func duration(_ node: ScenarioNode) throws(ScenarioError) -> Duration {
            guard let duration = ReportThresholds.duration(try node.string()) else { throw node.failShowingValue(ReportThresholds.durationExpected) }
            return duration
        }
        var settings = ReportSettings()
        if let within = report["follow_up_within"] { settings.followUpWithin = try duration(within) }
        if let polling = report["status_polling"] {
            let parts = try polling.object(allowed: ScenarioFormat.Keys.statusPolling)
            guard !parts.isEmpty else {
                throw polling.fail("expected \"limit\" (the most status queries of one cashout) or \"per\" (within how long), or both")
            }
            if let limit = parts["limit"] {
                settings.pollingLimit = try limit.integer(ReportThresholds.limits)
            }
            if let per = parts["per"] { settings.pollingPer = try duration(per) }
        }
        return settings
    }

    private static func readWebhooks(_ node: ScenarioNode, into scenario: inout Scenario, vocabulary: ScenarioVocabulary) throws(ScenarioError) {
        let webhooks = try node.object(allowed: ScenarioFormat.Keys.webhooks)
        if let retry = webhooks["retry"] { scenario.retrySchedule = try retry.array().map { (node) throws(ScenarioError) in try node.duration() } }
        if let timeout = webhooks["timeout"] { scenario.webhookTimeout = try timeout.duration() }
        if let sinks = webhooks["sinks"] { scenario.sinks = try readSinks(sinks) }
        if let chaos = webhooks["chaos"] {
            scenario.chaos = try readChaos(chaos, fields: vocabulary.ruleFields)
            scenario.chaosJSON = chaos.value
        }
    }

    static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n > 0 { bytes += buffer[0 ..< n] }
            if n < buffer.count { return ferror(file) == 0 ? bytes : nil }
            if bytes.count > 16 << 20 { return nil }  // a scenario is text, not data
        }
    }

    /// `{"ledger": URL or file, "settled": URL}`: where the app under test shows its own view of its
    /// payouts, and says whether it has work pending.
    static func readApp(_ node: ScenarioNode, into scenario: inout Scenario) throws(ScenarioError) {
        let app = try node.object(allowed: ScenarioFormat.Keys.app)
        if let ledger = app["ledger"] { scenario.appLedger = try readLedgerLocation(ledger) }
        if let settled = app["settled"] {
            let text = try settled.nonEmptyString()
            guard text.lowercased().hasPrefix("http://") else { throw settled.failShowingValue("expected an http:// URL") }
            scenario.appSettled = text
        }
    }

    /// A ledger's URL (`http://`, `${NAME}` expanded when read) or file path.
    static func readLedgerLocation(_ node: ScenarioNode) throws(ScenarioError) -> String {
        let text = try node.nonEmptyString()
        if text.lowercased().hasPrefix("https://") || (text.contains("://") && !text.lowercased().hasPrefix("http://")) {
            throw node.failShowingValue("expected an http:// URL or a file path")
        }
        return text
    }
}
