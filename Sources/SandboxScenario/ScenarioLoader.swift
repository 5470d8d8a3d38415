import Glibc
import SandboxBank
import SandboxJSON

/// Reads scenario files: JSON, checked against the format of DESIGN.md. Every refusal names the
/// file, the JSON path and what was expected; unknown keys are refusals too.
///
/// ```swift
/// let scenario = try ScenarioLoader.load(file: "scenarios/late-reversal.json", ruleFields: ["country", "amount"])
/// ```
///
/// `ruleFields` are the request fields a rule's `when` may test besides `merchant` and `dialect`:
/// the dialects' vocabulary (`Dialect.ruleFields`), which this module does not know.
public enum ScenarioLoader {
    static let topLevelKeys = ["$schema", "name", "description", "seed", "clock", "merchants", "bank", "faults", "webhooks", "steps"]

    /// Loads the file at `path`.
    public static func load(file path: String, ruleFields: Set<String>) throws(ScenarioError) -> Scenario {
        guard let bytes = readFile(path) else {
            throw ScenarioError(file: path, path: "", expected: "a readable file")
        }
        return try load(bytes, file: path, ruleFields: ruleFields)
    }

    /// Loads a scenario from its bytes; `file` names it in messages.
    public static func load(_ bytes: [UInt8], file: String, ruleFields: Set<String>) throws(ScenarioError) -> Scenario {
        let json: JSON
        do { json = try JSON.parse(bytes, duplicateKeys: false) } catch {
            throw ScenarioError(file: file, path: "", expected: "valid JSON (\(error))")
        }
        let root = ScenarioNode(value: json, path: "", file: file)
        let top = try root.object(allowed: topLevelKeys)
        var scenario = Scenario(name: try top["name"]?.string() ?? defaultName(file), file: file)
        if let seed = top["seed"] {
            guard case .number(let text) = seed.value, let value = UInt64(text) else { throw seed.fail("expected a whole number ≥ 0") }
            scenario.seed = value
        }
        if let clock = top["clock"] { try readClock(clock, into: &scenario) }
        if let merchants = top["merchants"] { scenario.merchants = try merchants.array().map(readMerchant) }
        if let bank = top["bank"] { try readBank(bank, into: &scenario, ruleFields: ruleFields.union(["merchant", "dialect"])) }
        if let faults = top["faults"] { scenario.faults = try faults.array().map(readFault) }
        if let webhooks = top["webhooks"] { try readWebhooks(webhooks, into: &scenario) }
        if let steps = top["steps"] { scenario.steps = try steps.array().map(readStep) }
        return scenario
    }

    private static func defaultName(_ file: String) -> String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        return base.hasSuffix(".json") ? String(base.dropLast(5)) : base
    }

    private static func readClock(_ node: ScenarioNode, into scenario: inout Scenario) throws(ScenarioError) {
        let clock = try node.object(allowed: ["mode", "start"])
        if let mode = clock["mode"] {
            guard let value = VirtualClock.Mode(rawValue: try mode.string()) else { throw mode.fail("expected \"real\" or \"manual\"") }
            scenario.clockMode = value
        }
        if let start = clock["start"] {
            guard let time = VirtualTime(iso8601: try start.string()) else {
                throw start.fail("expected a UTC time such as \"2026-01-05T09:00:00Z\"")
            }
            scenario.clockStart = time
        }
    }

    private static func readMerchant(_ node: ScenarioNode) throws(ScenarioError) -> Merchant {
        let fields = try node.object(allowed: ["login", "pass", "secret", "read_only_key", "balance", "limits",
                                               "minimum_amounts", "allowed_ips", "notification_url"])
        func required(_ key: String) throws(ScenarioError) -> String {
            guard let field = fields[key] else { throw node.fail("expected \"\(key)\"") }
            let text = try field.string()
            guard !text.isEmpty else { throw field.fail("expected a non-empty string") }
            return text
        }
        let login = try required("login")
        var merchant = Merchant(login: login, pass: try required("pass"), secret: try required("secret"),
                                readOnlyKey: try fields["read_only_key"]?.string() ?? "", balance: .zero)
        if let balance = fields["balance"] {
            guard case .object(let members) = balance.value, members.count == 1, let (currency, amount) = members.first,
                  currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                throw balance.fail("expected one settlement currency and its amount, such as {\"USD\": \"5000.00\"}")
            }
            merchant.currency = currency
            merchant.balance = try balance.child(currency, amount).money()
        }
        if let limits = fields["limits"] {
            let entries = try limits.object(allowed: ["transaction", "daily", "monthly"])
            merchant.limits = Merchant.Limits(transaction: try entries["transaction"]?.money(), daily: try entries["daily"]?.money(),
                                              monthly: try entries["monthly"]?.money())
        }
        if let minimums = fields["minimum_amounts"] {
            guard case .object(let members) = minimums.value else { throw minimums.fail("expected an object of country: amount") }
            for country in members.keys.sorted() {
                merchant.minimumAmounts[country] = try minimums.child(country, members[country]!).money()
            }
        }
        if let ips = fields["allowed_ips"] { merchant.allowedIPs = try ips.array().map { (node) throws(ScenarioError) in try node.string() } }
        if let url = fields["notification_url"] { merchant.callbackURL = try url.string() }
        return merchant
    }

    private static func readWebhooks(_ node: ScenarioNode, into scenario: inout Scenario) throws(ScenarioError) {
        let webhooks = try node.object(allowed: ["retry", "timeout", "sinks"])
        if let retry = webhooks["retry"] { scenario.retrySchedule = try retry.array().map { (node) throws(ScenarioError) in try node.duration() } }
        if let timeout = webhooks["timeout"] { scenario.webhookTimeout = try timeout.duration() }
        if let sinks = webhooks["sinks"] {
            guard case .object(let members) = sinks.value else { throw sinks.fail("expected an object of sink name: {\"answers\": [...]}") }
            for name in members.keys.sorted() {
                let sink = try sinks.child(name, members[name]!).object(allowed: ["answers"])
                scenario.sinkAnswers[name] = try sink["answers"]?.array().map { (node) throws(ScenarioError) in try node.integer(200 ... 599) } ?? []
            }
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
}
