import CashoutSandbox
import Dispatch
import FoundationEssentials
import SandboxBank
import SandboxWire
package import SandboxSupport
package import SandboxContract
import Synchronization

/// `cashout-sandbox explore` (the Testing your app guide, "Exploring"): runs one suite again and
/// again beside the user's app, each run drawing the bank's behaviour from the suite's
/// `explore` space (`ExploreSpace`) by its own seed. A run fails on a failed step, on a command
/// that exits other than 0, or on a finding of severity error in the integration report; a failing
/// run is written as an ordinary scenario file, with what it drew pinned (`ExploredRun`), then
/// shrunk: whatever can be left out while the same failure still shows is left out.
///
/// ```swift
/// let explorer = try Explorer(file: "scenarios/explore-d24.json", vocabulary: Sandbox.standardVocabulary,
///                             pool: ServingPool([serving]))
/// let run = explorer.run(number: 1, seed: 42)   // run.failures: ["ledger_mismatch"]
/// ```
package struct Explorer: Sendable {
    /// The suite as written, without its `explore` section.
    let suite: [String: JSON]
    let file: String
    package let name: String
    let space: ExploreSpace
    let vocabulary: ScenarioVocabulary
    /// Where each run (and each try of a shrink) runs: as many at once as it has servings.
    let pool: ServingPool

    /// Reads and checks the suite at `file`: it must load as a scenario with steps.
    package init(file: String, vocabulary: ScenarioVocabulary, pool: ServingPool) throws(ScenarioError) {
        let scenario = try ScenarioLoader.load(file: file, vocabulary: vocabulary)
        guard !scenario.steps.isEmpty else { throw ScenarioError(file: file, path: "", expected: "\"steps\": a suite to run beside the app") }
        guard let bytes = FileManager.default.contents(atPath: file), case .object(var suite) = try? JSON.parse(Array(bytes)) else {
            throw ScenarioError(file: file, path: "", expected: "a readable file")
        }
        suite["explore"] = nil
        self.suite = suite
        self.file = file
        name = scenario.name
        space = scenario.explore ?? .standard
        self.vocabulary = vocabulary
        self.pool = pool
    }

    /// One run: what the steps, the command and the report said.
    package struct Run: Sendable {
        package let number: Int
        package let seed: UInt64
        package var result: ScenarioResult
        /// The ids of the report's findings of severity error, sorted.
        package let findings: [String]
        /// What failed: the findings (alphabetically), then `step N`, then `command`; the first is
        /// what a shrink keeps failing. Empty: it passed.
        package let failures: [String]
        /// Each failure in full, in the same order: a finding on each payout it concerns (by the
        /// payout's content, `Payout.contentKey`, which a new run of the same app gives the same
        /// payout) and, for a ledger mismatch, of what kind: `ledger_mismatch fate 8301…`. "The same
        /// failure" of a shrink is the first of these.
        let signatures: [String]
        /// What the run drew, pinned.
        let drawn: ExploredRun
        /// What a failing run prints (`failureLines`): the same whenever the run is made again.
        package let lines: [String]
        /// A failing run's record (`Sandbox.runRecord(scenario:)`): its end state, which `cashout-sandbox show` serves.
        package var record: JSON?

        package var passed: Bool { failures.isEmpty }
    }

    /// Runs `numbers`, run n with seed `seed + n - 1`, as many at once as the pool has servings;
    /// `each` gets them on the caller's thread in the order of `numbers`, each once it and those
    /// before it have ended, so that what it prints is what one job prints. Later runs go on
    /// meanwhile, and a `reproduce` inside `each` shares the pool with them. When `each` answers
    /// false, no run starts any more, and `each` is not called again.
    package func runs(_ numbers: [Int], seed: UInt64, each: (Run) -> Bool) {
        let queue = RunQueue(count: numbers.count)
        let workers = (0 ..< min(pool.count, numbers.count)).map { _ in
            OSThread(name: "explore-run") { [self] in
                while let index = queue.take() {
                    queue.end(index, run(number: numbers[index], seed: seed &+ UInt64(numbers[index] - 1)))
                }
            }
        }
        for index in numbers.indices where !each(queue.wait(index)) {
            queue.cancel()
            break
        }
        for worker in workers { worker.join() }
    }

    /// The runs of `runs(_:seed:each:)`: the next to start, and each one ended.
    private final class RunQueue: Sendable {
        private let next = Atomic(0)
        private let ended: [DispatchSemaphore]
        private let results = Mutex<[Int: Run]>([:])

        init(count: Int) { ended = (0 ..< count).map { _ in DispatchSemaphore(value: 0) } }

        func take() -> Int? {
            let index = next.add(1, ordering: .relaxed).oldValue
            return index < ended.count ? index : nil
        }

        /// No run is taken any more.
        func cancel() { next.store(ended.count, ordering: .relaxed) }

        func end(_ index: Int, _ run: Run) {
            results.withLock { $0[index] = run }
            ended[index].signal()
        }

        func wait(_ index: Int) -> Run {
            ended[index].wait()
            return results.withLock { $0.removeValue(forKey: index)! }
        }
    }

    /// A count threads add to.
    private final class Counter: Sendable {
        private let count = Atomic(0)
        var value: Int { count.load(ordering: .relaxed) }
        func add() { count.add(1, ordering: .relaxed) }
    }

    /// Runs the suite once with what `seed` draws from the space.
    package func run(number: Int, seed: UInt64) -> Run {
        var json = suite
        json["seed"] = .number(String(seed))
        let (rules, chaos, faults) = space.runSections(vocabulary)
        Self.append(rules, to: &json, at: "bank", "rules")
        Self.append(chaos, to: &json, at: "webhooks", "chaos")
        Self.append(faults, to: &json, at: nil, "faults")
        var drawn = ExploredRun()
        var record: JSON?
        let result = execute(.object(json), number: number, seed: seed) { sandbox, failed in
            drawn = ExploredRun(sandbox, space: space, suiteFaults: suite["faults"]?.arrayValue?.count ?? 0, vocabulary: vocabulary)
            if failed { record = sandbox.runRecord(scenario: .object(json)) }
        }
        return Run(number: number, seed: seed, result: result.result, findings: result.findings, failures: result.failures,
                   signatures: result.signatures, drawn: drawn, lines: result.lines, record: record)
    }

    /// The file that reproduces a failing run, shrunk, and how it was made.
    package struct Reproduction: Sendable {
        /// The scenario file's JSON.
        package let json: JSON
        /// The failure it was shrunk for (the run's first).
        let target: String
        /// Whether the file, run once more, failed the same way (a run whose failure depends on
        /// timing alone may not).
        package let reproduced: Bool
        /// How many pinned rules (outcomes, chaos, faults) the run drew, and how many the file keeps.
        package let drawn: Int
        package let kept: Int
    }

    /// How many times in a row a try must fail the same way to count as failing so.
    static let tries = 3

    /// The failing `run` as a scenario file of fixed rules, with every rule whose absence still
    /// fails the same way left out, and then the delays shortened if it still does. The same way is
    /// the same failure (`Run.signatures`' first: the finding, on the same payout, of the same
    /// kind), in each of `tries` tries: a try that fails otherwise, or passes once, keeps the rule.
    package func reproduce(_ run: Run) -> Reproduction {
        let target = run.failures.first ?? ""
        let signature = run.signatures.first ?? target
        var elements = run.drawn.elements
        var shortened = false
        let title = "\(name), explored run \(run.number) (seed \(run.seed))"
        // The tries at once where the pool has a serving for each; else one after another, up to
        // the first that does not fail the same way.
        func fails(_ candidate: [ExploredRun.Element], short: Bool) -> Bool {
            let json = fixed(candidate, of: run.drawn, shortened: short, title: title, target: target)
            // A step's failure is decided by that step: a try ends there.
            let lastStep = target.hasPrefix("step ") ? Int(target.dropFirst(5)) : nil
            let failsOnce: @Sendable () -> Bool = { [self] in
                execute(json, number: run.number, seed: run.seed, lastStep: lastStep, examine: nil).signatures.contains(signature)
            }
            guard pool.count >= Self.tries else { return (1 ... Self.tries).allSatisfy { _ in failsOnce() } }
            let failing = Counter()
            let tries = (1 ... Self.tries).map { _ in OSThread(name: "explore-try") { if failsOnce() { failing.add() } } }
            for thread in tries { thread.join() }
            return failing.value == Self.tries
        }
        let reproduced = fails(elements, short: false)
        if reproduced {
            // First what concerns the payouts that failed (and what concerns no payout known) alone:
            // most of what a run drew is about other payouts, and goes in one try rather than one each.
            let focus = Set(signature.split(separator: " ").compactMap { UInt64($0) })
            let narrowed = elements.filter { element in element.payout.map(focus.contains) ?? true }
            if !focus.isEmpty, narrowed.count < elements.count, fails(narrowed, short: false) { elements = narrowed }
            var index = 0
            while index < elements.count {
                var without = elements
                without.remove(at: index)
                if fails(without, short: false) { elements = without } else { index += 1 }
            }
            shortened = elements.contains(where: \.isTimeline) && fails(elements, short: true)
        }
        return Reproduction(json: fixed(elements, of: run.drawn, shortened: shortened, title: title, target: target), target: target,
                            reproduced: reproduced, drawn: run.drawn.elements.count, kept: elements.count)
    }

    /// The failing `run` as a scenario file of fixed rules, all it drew, not tried again.
    package func unshrunk(_ run: Run) -> Reproduction {
        let target = run.failures.first ?? ""
        let title = "\(name), explored run \(run.number) (seed \(run.seed))"
        return Reproduction(json: fixed(run.drawn.elements, of: run.drawn, shortened: false, title: title, target: target), target: target,
                            reproduced: false, drawn: run.drawn.elements.count, kept: run.drawn.elements.count)
    }

    /// The suite with `elements` (of `drawn`) pinned after its own rules, and every other payout of the usual fate.
    func fixed(_ elements: [ExploredRun.Element], of drawn: ExploredRun, shortened: Bool, title: String, target: String) -> JSON {
        var json = suite
        json["name"] = .string(title)
        let ties = Set(elements.compactMap(\.payout)).compactMap { drawn.ties[$0] }.sorted()
        json["description"] = .string("""
            Found by cashout-sandbox explore \(file): fails with \(target). The bank's behaviour that run drew is pinned \
            below (rules, chaos and faults named "explored"), each by what the app asks for; every other payout takes \
            the usual fate. Rerun it with cashout-sandbox test THIS_FILE --serve --exec CMD.
            """ + ties.map { " " + $0 }.joined())
        let usual = ExploredRun.fixedTimeline(space.usualFate)
        Self.append(elements.compactMap { $0.rule(shortened: shortened) } + [["name": "explored: the usual fate", "then": .array(usual)]],
                    to: &json, at: "bank", "rules")
        Self.append(elements.compactMap(\.chaos), to: &json, at: "webhooks", "chaos")
        Self.append(elements.compactMap(\.fault), to: &json, at: nil, "faults")
        // `test` judges steps, not the report: a finding fails the file by a last step that asks for none.
        let steps = json["steps"]?.arrayValue ?? []
        if !target.hasPrefix("step "), target != "command", steps.last?["expect_report"]?["no_errors"] != .bool(true) {
            Self.append([["comment": "explore judged the report: no finding of severity error", "expect_report": ["no_errors": true]]],
                        to: &json, at: nil, "steps")
        }
        return .object(json)
    }

    /// What running a scenario beside the command came to (`Run`'s parts).
    private typealias Execution = (result: ScenarioResult, findings: [String], failures: [String], signatures: [String], lines: [String])

    /// Runs `json` as a scenario beside the command: its result, the report's error findings, the
    /// failures and their signatures (`Run.signatures`), and the lines a failure prints.
    /// (`examine`: what a run that is printed looks at before its sandbox stops, told whether the run failed: a step, the
    /// ledger, or the report's errors.)
    private func execute(_ json: JSON, number: Int, seed: UInt64, lastStep: Int? = nil,
                         examine: ((Sandbox, _ failed: Bool) -> Void)?) -> Execution {
        let started = Date()
        let label = "run \(number) (seed \(seed))"
        let scenario: Scenario
        do {
            scenario = try ScenarioLoader.load(json.serialized(), file: file, vocabulary: vocabulary)
        } catch {
            let result = ScenarioResult(name: label, file: file, failure: (0, "the explored scenario does not load: \(error.message)"),
                                        steps: 0, seconds: 0)
            return (result, [], ["load"], ["load"], result.failureText.map { [$0] } ?? [])
        }
        var findings: [String] = []
        var signatures: [String] = []
        var occurrences: [(id: String, account: String, occurrence: String)] = []
        var names: StableNames?
        var result: ScenarioResult
        do {
            result = try pool.with { serving in
                var serving = serving
                // The run explore reports shows what happened to the payouts that failed; a shrink's tries need not.
                serving.timeline = examine == nil ? .none : .onFailure
                serving.judgesAfterFailure = false
                serving.judgesReportErrors = true
                serving.lastStep = lastStep
                return try ScenarioRunner.run(scenario, serving: serving) { sandbox, failed in
                    // The report, made once: its errors as JSON for the lines, typed for the timeline.
                    let (report, typed) = sandbox.reportWithErrors()
                    var errors: [JSON] = []
                    // A check newer than the suite's version (`written_for`) is not judged (the Changes guide).
                    let versions = sandbox.reportCheckVersions
                    func inView(_ finding: JSON) -> Bool { (versions[finding["id"]?.stringValue ?? ""] ?? .earliest) <= scenario.writtenFor }
                    for account in report["accounts"]?.arrayValue ?? [] {
                        for finding in account["findings"]?.arrayValue ?? [] where finding["severity"]?.stringValue == "error" && inView(finding) {
                            errors.append(finding)
                            occurrences += (finding["occurrences"]?.arrayValue ?? []).compactMap(\.stringValue).map {
                                (finding["id"]?.stringValue ?? "", account["account"]?.stringValue ?? "", $0)
                            }
                        }
                    }
                    findings = Set(errors.compactMap { $0["id"]?.stringValue }).sorted()
                    signatures = Self.signatures(of: errors, sandbox: sandbox, contentFields: vocabulary.ruleFields)
                    names = StableNames(sandbox, ruleFields: vocabulary.ruleFields)
                    examine?(sandbox, failed || !findings.isEmpty)
                    return typed.filter { (versions[$0.id] ?? .earliest) <= scenario.writtenFor }
                }
            }
        } catch {
            result = ScenarioResult(name: scenario.name, file: file, failure: (0, "could not start a sandbox: \(error)"), steps: scenario.steps.count,
                                    seconds: Date().timeIntervalSince(started))
        }
        var failures = findings
        // Each failed step; the ledger after the steps fails the run by its mismatch (the report's
        // ledger_mismatch finding) or, unread, as "ledger".
        if result.failure?.step == 0 { failures.append("start") }
        failures += result.failedSteps.map { "step \($0.step)" }
        if unreadableLedger(result) { failures.append("ledger") }
        // A command stopped because a step failed failed by that step, not on its own.
        if result.command?.passed == false, result.command?.stoppedAfterStep == nil { failures.append("command") }
        // The report's errors fail a run as a step would: written as the failure when no step failed.
        let failure = result.failure ?? (findings.isEmpty ? nil : (0, "the integration report has errors: \(findings.joined(separator: ", "))"))
        signatures += failures.filter { !findings.contains($0) }
        var named = result.renamed(label, failure: failure)
        named.timeline = result.timeline.map { timeline in
            var timeline = timeline
            timeline.title = "\(name) (\(file)), \(label), as it first failed"
            for index in timeline.cashouts.indices { timeline.cashouts[index].name = names?.name(of: timeline.cashouts[index].id) }
            return timeline
        }
        // What happened this time: the app's threads and timing may make it another the next (the lines above are the same).
        let timeline = named.timelineLines(realTime: true, order: { names?.name(of: $0) ?? "" }) { names?.apply($0) ?? $0 }
        let lines = failures.isEmpty ? [] : Self.failureLines(named, findings: occurrences, names: names) + timeline
        return (named, findings, failures, signatures, lines)
    }

    /// Each error finding on each payout it concerns, by the payout's content and occurrence; a
    /// ledger mismatch with its kind (the last reconciliation's): `late_rejection_missed 8301… #1`,
    /// `ledger_mismatch fate 8301… #2`. Sorted, as the findings are.
    private static func signatures(of errors: [JSON], sandbox: Sandbox, contentFields: Set<String>) -> [String] {
        func content(_ ids: [Int]) -> String {
            ids.compactMap { sandbox.bank.payout(id: $0).map { "\($0.contentKey(contentFields)) #\($0.occurrence)" } }.sorted()
                .joined(separator: " ")
        }
        var signatures: [String] = []
        for finding in errors {
            guard let id = finding["id"]?.stringValue, id != "ledger_mismatch" else { continue }
            let occurrences = finding["cashouts"]?.arrayValue?.compactMap { $0.numberText.flatMap { Int($0) } } ?? []
            signatures += occurrences.isEmpty ? [id] : occurrences.map { "\(id) \(content([$0]))" }
        }
        for mismatch in sandbox.reports.reconciliation.last?.mismatches ?? [] {
            signatures.append("ledger_mismatch \(mismatch.kind) \(content(mismatch.occurrence.cashouts))")
        }
        return signatures.sorted()
    }

    /// Whether the app's ledger could not be read after the steps.
    private func unreadableLedger(_ result: ScenarioResult) -> Bool {
        if case .failed(_, unreadable: true) = result.ledger { true } else { false }
    }

    /// A scenario file's text: its keys in the format's order, each section's members and each
    /// list's items on lines of their own, what is inside them on one line (a rule, a step).
    package func text(_ json: JSON) -> String {
        func render(_ value: JSON, _ indent: String, depth: Int) -> String {
            switch value {
            case .object(let members) where depth > 0 && !members.isEmpty:
                let order = depth == 3 ? ScenarioLoader.topLevelKeys(vocabulary) : []
                let keys = members.keys.sorted { (order.firstIndex(of: $0) ?? .max, $0) < (order.firstIndex(of: $1) ?? .max, $1) }
                return "{\n" + keys.map { key in
                    "\(indent)  \(JSON.string(key).serializedString()): \(render(members[key]!, indent + "  ", depth: depth - 1))"
                }.joined(separator: ",\n") + "\n\(indent)}"
            case .array(let items) where depth > 0 && !items.isEmpty:
                return "[\n" + items.map { indent + "  " + $0.serializedString() }.joined(separator: ",\n") + "\n\(indent)]"
            default:
                return value.serializedString()
            }
        }
        return render(json, "", depth: 3) + "\n"
    }

    /// Appends `values` to the array at `json[section][key]` (`json[key]` without a section).
    private static func append(_ values: [JSON], to json: inout [String: JSON], at section: String?, _ key: String) {
        guard !values.isEmpty else { return }
        guard let section else {
            json[key] = .array((json[key]?.arrayValue ?? []) + values)
            return
        }
        var members = json[section]?.objectValue ?? [:]
        members[key] = .array((members[key]?.arrayValue ?? []) + values)
        json[section] = .object(members)
    }
}
