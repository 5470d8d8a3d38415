package import SandboxSupport

/// A check of what the payout APIs received, read from the request log, as WireMock's
/// `verify` and MockServer's `verify` / `verifySequence` do:
/// `{"request": PATTERN, "count": {"exactly" | "at_least" | "at_most": N}}` (default: at least 1),
/// or `{"sequence": [PATTERN, …]}`: requests matching these came in this order (others between).
///
/// Its answer is exact or none: the journal keeps its last N requests (`serve --request-journal
/// N`), and once it has pushed one out since it was last cleared, a verification that needs the
/// requests it no longer has (an `exactly`, an `at_most` within its bound, an `at_least` or a
/// sequence not found among those kept) is `unknowable`, never answered as if they had not come.
package struct RequestVerification: Sendable {
    package enum Count: Sendable, Equatable {
        case exactly(Int), atLeast(Int), atMost(Int)

        package var json: JSON {
            switch self {
            case .exactly(let n): ["exactly": .number(n)]
            case .atLeast(let n): ["at_least": .number(n)]
            case .atMost(let n): ["at_most": .number(n)]
            }
        }

        package var wanted: Int {
            switch self {
            case .exactly(let n), .atLeast(let n), .atMost(let n): n
            }
        }

        package var words: String {
            switch self {
            case .exactly(let n): "exactly \(n)"
            case .atLeast(let n): "at least \(n)"
            case .atMost(let n): "at most \(n)"
            }
        }
    }

    package enum Kind: Sendable {
        case count(RequestPattern, Count)
        case sequence([RequestPattern])
    }

    package let kind: Kind

    /// The verification as asked, with its count's default filled in: an answer's `expected`.
    package var json: JSON {
        switch kind {
        case .count(let pattern, let count): ["request": pattern.json, "count": count.json]
        case .sequence(let patterns): ["sequence": .array(patterns.map(\.json))]
        }
    }

    /// What a count's bound may be.
    static let countRange = 0 ... 100_000_000

    /// The forms of a count, each with one bound: `{"exactly": 2}`.
    static let countForms = ScenarioFormat.Keys.requestCount

    /// Reads `{"request", "count"}` or `{"sequence"}` at `node` (a request's body, a scenario
    /// step's); each error names its JSON path.
    package static func read(_ node: ScenarioNode) throws(ScenarioError) -> RequestVerification {
        let parts = try node.object(allowed: ScenarioFormat.Keys.expectRequests)
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
            let bounds = try node.object(allowed: ScenarioFormat.Keys.requestCount)
            guard bounds.count == 1, let (name, value) = bounds.first else {
                throw node.fail("expected one of \"exactly\", \"at_least\" or \"at_most\"")
            }
            let number = try value.integer(countRange)
            count = name == "exactly" ? .exactly(number) : name == "at_least" ? .atLeast(number) : .atMost(number)
        }
        return RequestVerification(kind: .count(pattern, count))
    }

    /// `POST /v3/cashout with body.amount >= 100, body.country "BR"`, or `any request`.
    package static func summary(_ pattern: RequestPattern) -> String {
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
