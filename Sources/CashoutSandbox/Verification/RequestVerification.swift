import SandboxJSON
import SandboxScenario

/// A check of what the payout APIs received, read from the request journal, as WireMock's
/// `verify` and MockServer's `verify` / `verifySequence` do:
/// `{"request": PATTERN, "count": {"exactly" | "at_least" | "at_most": N}}` (default: at least 1),
/// or `{"sequence": [PATTERN, …]}`: requests matching these came in this order (others between).
///
/// Its answer is exact or none: the journal keeps its last N requests (`serve --request-journal
/// N`), and once it has pushed one out since it was last cleared, a verification that needs the
/// requests it no longer has (an `exactly`, an `at_most` within its bound, an `at_least` or a
/// sequence not found among those kept) is `unknowable`, never answered as if they had not come.
struct RequestVerification: Sendable {
    enum Count: Sendable, Equatable {
        case exactly(Int), atLeast(Int), atMost(Int)

        var json: JSON {
            switch self {
            case .exactly(let n): ["exactly": .number(n)]
            case .atLeast(let n): ["at_least": .number(n)]
            case .atMost(let n): ["at_most": .number(n)]
            }
        }

        var wanted: Int {
            switch self {
            case .exactly(let n), .atLeast(let n), .atMost(let n): n
            }
        }

        var words: String {
            switch self {
            case .exactly(let n): "exactly \(n)"
            case .atLeast(let n): "at least \(n)"
            case .atMost(let n): "at most \(n)"
            }
        }
    }

    enum Kind: Sendable {
        case count(RequestPattern, Count)
        case sequence([RequestPattern])
    }

    let kind: Kind

    /// The verification as asked, with its count's default filled in: an answer's `expected`.
    var json: JSON {
        switch kind {
        case .count(let pattern, let count): ["request": pattern.json, "count": count.json]
        case .sequence(let patterns): ["sequence": .array(patterns.map(\.json))]
        }
    }

    /// What the verification found: `satisfied` or not with what was counted and the near misses,
    /// or `unknowable` when the journal no longer holds what would decide it.
    enum Outcome {
        case satisfied(count: Int, matched: [Int])
        case notSatisfied(count: Int, matched: [Int], message: String, nearMisses: [(entry: Int, differences: [String])])
        case unknowable(String)
    }

    /// Reads `{"request", "count"}` or `{"sequence"}`; each error names its JSON path.
    static func read(_ json: JSON) throws(ScenarioError) -> RequestVerification {
        let root = ScenarioNode(value: json, path: "", file: "request body")
        let parts = try root.object(allowed: ["request", "count", "sequence"])
        if let sequence = parts["sequence"] {
            if let extra = parts["request"] ?? parts["count"] { throw extra.fail("expected only without \"sequence\"") }
            let patterns = try sequence.array().map { (node) throws(ScenarioError) in try RequestPattern.read(node) }
            guard !patterns.isEmpty else { throw sequence.fail("expected at least one request pattern") }
            return RequestVerification(kind: .sequence(patterns))
        }
        let pattern = try parts["request"].map { (node) throws(ScenarioError) in try RequestPattern.read(node) }
            ?? RequestPattern(json: .object([:]))
        var count = Count.atLeast(1)
        if let node = parts["count"] {
            let bounds = try node.object(allowed: ["exactly", "at_least", "at_most"])
            guard bounds.count == 1, let (name, value) = bounds.first else {
                throw node.fail("expected one of \"exactly\", \"at_least\" or \"at_most\"")
            }
            let number = try value.integer(0 ... 100_000_000)
            count = name == "exactly" ? .exactly(number) : name == "at_least" ? .atLeast(number) : .atMost(number)
        }
        return RequestVerification(kind: .count(pattern, count))
    }

    /// Decides the verification over `journal`'s entries.
    func outcome(in journal: RequestJournal) -> Outcome {
        guard journal.capacity > 0 else {
            return .unknowable("the request journal keeps no request (serve --request-journal 0): nothing can be verified")
        }
        let (entries, lost) = journal.all()
        let subjects = entries.map(journal.subject)
        let unseen = lost == 0 ? nil : "\(lost) requests were pushed out of the request journal since it was last cleared (it keeps "
            + "\(journal.capacity): serve --request-journal N keeps more; DELETE /sandbox/requests at the start of a test starts it afresh)"
        switch kind {
        case .count(let pattern, let count):
            let matched = zip(entries, subjects).filter { pattern.differences($1).isEmpty }.map(\.0.id)
            let n = matched.count
            let holds: Bool?  // nil: the requests pushed out decide
            switch count {
            case .exactly(let wanted): holds = n > wanted ? false : (unseen == nil ? n == wanted : nil)
            case .atLeast(let wanted): holds = n >= wanted ? true : (unseen == nil ? false : nil)
            case .atMost(let wanted): holds = n > wanted ? false : (unseen == nil ? true : nil)
            }
            guard let holds else { return .unknowable("\(n) of the requests kept match, and \(unseen!)") }
            if holds { return .satisfied(count: n, matched: matched) }
            let misses = n == 0 ? Self.nearMisses(pattern, entries, subjects) : []
            return .notSatisfied(count: n, matched: matched, message: "expected \(count.words) \(count.wanted == 1 ? "request" : "requests") "
                                     + "matching \(Self.summary(pattern)), got \(n)", nearMisses: misses)
        case .sequence(let patterns):
            var matched: [Int] = [], next = 0
            for (entry, subject) in zip(entries, subjects) where next < patterns.count && patterns[next].differences(subject).isEmpty {
                matched.append(entry.id)
                next += 1
            }
            if next == patterns.count { return .satisfied(count: next, matched: matched) }
            if let unseen { return .unknowable("the sequence is not among the requests kept, and \(unseen)") }
            let after = matched.last.map { " after request \($0)" } ?? ""
            let rest = zip(entries, subjects).filter { $0.0.id > (matched.last ?? 0) }
            return .notSatisfied(count: next, matched: matched,
                                 message: "expected the requests in order; request \(next + 1) of the sequence, "
                                     + "\(Self.summary(patterns[next])), did not come\(after)",
                                 nearMisses: Self.nearMisses(patterns[next], rest.map(\.0), rest.map(\.1)))
        }
    }

    /// How many near misses an answer lists at most.
    static let nearMissLimit = 5

    /// The requests closest to matching, fewest differences first (then newest): WireMock's near
    /// misses. A request differing in every part the pattern tests is no near miss.
    private static func nearMisses(_ pattern: RequestPattern, _ entries: [RequestJournal.Entry],
                                   _ subjects: [RequestPattern.Subject]) -> [(entry: Int, differences: [String])] {
        let parts = (pattern.method == nil ? 0 : 1) + (pattern.path == nil ? 0 : 1) + (pattern.dialect == nil ? 0 : 1)
            + pattern.headers.count + pattern.body.count
        let scored = zip(entries, subjects).map { (entry: $0.id, differences: pattern.differences($1)) }
            .filter { !$0.differences.isEmpty && $0.differences.count < max(parts, 2) }
        return Array(scored.sorted { ($0.differences.count, -$0.entry) < ($1.differences.count, -$1.entry) }.prefix(nearMissLimit))
    }

    /// `POST /v3/cashout with body.amount >= 100, body.country "BR"`, or `any request`.
    static func summary(_ pattern: RequestPattern) -> String {
        var words: [String] = []
        if let method = pattern.method { words.append(method.exactText ?? "method \(method)") }
        if let path = pattern.path { words.append(path.exactText ?? "path \(path)") }
        var tests: [String] = []
        if let dialect = pattern.dialect { tests.append("dialect \(dialect)") }
        tests += pattern.headers.map { "headers.\($0.name) \($0.matcher)" }
        tests += pattern.body.map { "body.\($0.path.joined(separator: ".")) \($0.matcher)" }
        if words.isEmpty { words.append("any request") }
        return words.joined(separator: " ") + (tests.isEmpty ? "" : " with " + tests.joined(separator: ", "))
    }
}
