// libFuzzer harness for SandboxContract's loader: scenario files come from disk and from
// `POST /sandbox/scenario`, so they are untrusted input. Built and run by .ci/fuzz; seeds in
// Tests/Fuzz/corpus/scenario (the repository's scenarios/*.json among them), dictionary
// Tests/Fuzz/scenario.dict.
//
// A `ScenarioError` is a normal outcome. The properties, any break of which traps:
//   * every refusal names the file and says what was expected;
//   * the loader sees JSON values, not bytes: when the input is valid JSON, loading its
//     re-serialized form (other key order, other spacing) gives the same scenario or the same
//     refusal;
//   * what loads can be used: layered over the built-in default, the rule engine it makes
//     decides a decline and a timeline (weighted and random delays included) for a few
//     payouts without trapping, and decides the same way when asked twice.

@testable import SandboxBank
@testable import SandboxD24
@testable import SandboxSupport
@testable import SandboxMannco
@testable import SandboxContract

private let file = "scenarios/fuzz.json"
private let vocabulary = D24Dialect().vocabulary.merging(ManncoDialect().vocabulary)
private let builtIn = try! ScenarioLoader.load(Array(D24Dialect.builtInScenarioText.utf8), file: "default.json", vocabulary: vocabulary)

private func load(_ bytes: [UInt8]) -> Result<Scenario, ScenarioError> {
    do throws(ScenarioError) {
        return .success(try ScenarioLoader.load(bytes, file: file, vocabulary: vocabulary))
    } catch {
        return .failure(error)
    }
}

/// A comparable summary of a loaded scenario (Scenario is not Equatable).
private func summary(_ scenario: Scenario) -> String {
    let rules = scenario.rules.map { rule in
        "\(rule.name ?? "-") \(rule.when.keys.sorted()) \(String(describing: rule.outcome))"
    }
    return """
    \(scenario.name) seed=\(scenario.seed.map(String.init) ?? "-") clock=\(String(describing: scenario.clockMode)) \
    start=\(String(describing: scenario.clockStart)) merchants=\(scenario.accounts.map(\.id)) rules=\(rules) \
    default=\(String(describing: scenario.defaultTimeline)) faults=\(scenario.faults?.count ?? -1) \
    retry=\(String(describing: scenario.retrySchedule)) timeout=\(String(describing: scenario.webhookTimeout)) \
    sinks=\(scenario.sinks.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }) steps=\(scenario.steps.count)
    """
}

private let fieldSets: [Fields] = [
    ["country": "BR", "currency": "BRL", "amount": "100.00", "document_id": "01716001340", "bank_code": "001",
     "beneficiary_name": "Ana", "beneficiary_lastname": "Silva", "external_id": "order-1"],
    ["country": "MX", "amount": "826", "bank_account": "012180001234567897", "beneficiary_name": "REJECT"],
    ["amount": "0.01", "email": "a@b.co", "comments": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"],
    [:],
]

private func exercise(_ scenario: Scenario, _ input: [UInt8]) {
    let setup = ScenarioSetup(layering: [builtIn, scenario])
    let engine = setup.engine
    var configuration = Bank.Configuration()
    setup.configure(&configuration)
    for (i, fields) in fieldSets.enumerated() {
        for merchant in ["sandbox_login"] + scenario.accounts.prefix(2).map(\.id) {
            let request = PayoutRequest(dialect: "d24", account: merchant, reference: "e\(i)", country: fields["country"] ?? "BR",
                                        currency: fields["currency"] ?? "USD", amount: Money(fields["amount"] ?? "1") ?? Money(hundredths: 100),
                                        fields: fields)
            let declined = engine.decline(for: request) != nil
            let payout = Payout(id: 1_000_001 + i, dialect: request.dialect, account: merchant, reference: request.reference,
                                country: request.country, currency: request.currency, amount: request.amount, settlementAmount: request.amount,
                                fields: fields, callbackURL: nil, createdAt: VirtualTime(milliseconds: 0),
                                status: .pending, history: [])
            let steps = engine.timeline(for: payout)
            // Seeded by the scenario's seed and the payout's id: the same payout, the same timeline.
            guard engine.timeline(for: payout) == steps else { fuzzFail("timeline not deterministic", input) }
            guard (engine.decline(for: request) != nil) == declined else { fuzzFail("decline not deterministic", input) }
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func scenarioLoaderFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    let loaded = load(input)
    if fuzzShow {
        switch loaded {
        case .success(let scenario): fuzzShowLine("loaded: \(summary(scenario))")
        case .failure(let error): fuzzShowLine("refused: \(error)")
        }
    }

    if case .failure(let error) = loaded {
        guard error.file == file, !error.expected.isEmpty else { fuzzFail("refusal without file or expectation: \(error)", input) }
    }

    // Same JSON value, other bytes: same outcome.
    if let json = try? JSON.parse(input, duplicateKeys: false) {
        let again = load(json.serialized())
        switch (loaded, again) {
        case (.success(let a), .success(let b)):
            guard summary(a) == summary(b) else { fuzzFail("re-serialized input loads differently:\n\(summary(a))\n\(summary(b))", input) }
        case (.failure(let a), .failure(let b)):
            guard a == b else { fuzzFail("re-serialized input refused differently: \(a) / \(b)", input) }
        default:
            fuzzFail("re-serialized input: \(loaded) / \(again)", input)
        }
    }

    if case .success(let scenario) = loaded { exercise(scenario, input) }
    return 0
}
