import CashoutSandbox
import SandboxJSON

// Request verification for Swift tests, as WireMock's `verify(postRequestedFor(...))`: the same
// check as `POST /sandbox/requests/verify`, written in Swift, failing the test (a thrown error)
// with the near misses.
//
//     try await sandbox.verify(.post("/v3/cashout", body: ["amount": .gte(100), "country": "BR"]), count: .exactly(2))

/// A request the app under test should have sent: every part optional.
public struct ExpectedRequest: Sendable {
    /// The pattern as `POST /sandbox/requests/verify` takes it.
    public let json: JSON

    /// A request with any of `method`, `path`, `dialect` (`d24`, `mannco`, `prism`), header
    /// matchers (by name, any case) and body field matchers (`"beneficiary.name"` reaches inside).
    public static func request(method: String? = nil, path: FieldMatch? = nil, dialect: String? = nil,
                               headers: [String: FieldMatch] = [:], body: [String: FieldMatch] = [:]) -> ExpectedRequest {
        var pattern: [String: JSON] = [:]
        pattern["method"] = method.map(JSON.string)
        pattern["path"] = path?.json
        pattern["dialect"] = dialect.map(JSON.string)
        if !headers.isEmpty { pattern["headers"] = .object(headers.mapValues(\.json)) }
        if !body.isEmpty { pattern["body"] = .object(body.mapValues(\.json)) }
        return ExpectedRequest(json: .object(pattern))
    }

    public static func post(_ path: String, headers: [String: FieldMatch] = [:], body: [String: FieldMatch] = [:]) -> ExpectedRequest {
        request(method: "POST", path: .equals(path), headers: headers, body: body)
    }

    public static func put(_ path: String, headers: [String: FieldMatch] = [:], body: [String: FieldMatch] = [:]) -> ExpectedRequest {
        request(method: "PUT", path: .equals(path), headers: headers, body: body)
    }

    public static func get(_ path: String, headers: [String: FieldMatch] = [:]) -> ExpectedRequest {
        request(method: "GET", path: .equals(path), headers: headers)
    }

    public static func delete(_ path: String, headers: [String: FieldMatch] = [:], body: [String: FieldMatch] = [:]) -> ExpectedRequest {
        request(method: "DELETE", path: .equals(path), headers: headers, body: body)
    }
}

/// A test of one value, as scenario files write matchers: a string literal is an exact text,
/// an integer literal an exact amount (`100` equals `"100.00"`); amounts compare as decimals.
public struct FieldMatch: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    public let json: JSON

    public init(stringLiteral value: String) { json = .string(value) }
    public init(integerLiteral value: Int) { json = .number(String(value)) }
    private init(_ json: JSON) { self.json = json }

    public static func equals(_ text: String) -> FieldMatch { FieldMatch(.string(text)) }
    public static func oneOf(_ texts: [String]) -> FieldMatch { FieldMatch(["in": .array(texts.map(JSON.string))]) }
    public static func prefix(_ text: String) -> FieldMatch { FieldMatch(["prefix": .string(text)]) }
    public static func suffix(_ text: String) -> FieldMatch { FieldMatch(["suffix": .string(text)]) }
    /// The whole value matches `pattern`.
    public static func regex(_ pattern: String) -> FieldMatch { FieldMatch(["regex": .string(pattern)]) }
    public static func gt(_ amount: Int) -> FieldMatch { FieldMatch(["gt": .number(String(amount))]) }
    public static func gte(_ amount: Int) -> FieldMatch { FieldMatch(["gte": .number(String(amount))]) }
    public static func lt(_ amount: Int) -> FieldMatch { FieldMatch(["lt": .number(String(amount))]) }
    public static func lte(_ amount: Int) -> FieldMatch { FieldMatch(["lte": .number(String(amount))]) }
    /// An amount with decimals, as text: `.gte("100.50")`.
    public static func gte(_ amount: String) -> FieldMatch { FieldMatch(["gte": .string(amount)]) }
    public static func lte(_ amount: String) -> FieldMatch { FieldMatch(["lte": .string(amount)]) }
}

/// How many requests a verification wants.
public enum RequestCount: Sendable {
    case exactly(Int), atLeast(Int), atMost(Int)

    var json: JSON {
        switch self {
        case .exactly(let n): ["exactly": .number(String(n))]
        case .atLeast(let n): ["at_least": .number(String(n))]
        case .atMost(let n): ["at_most": .number(String(n))]
        }
    }
}

/// A verification that does not hold (or cannot be answered): its message, then each near miss
/// with its differences, which a failing test shows.
public struct RequestVerificationFailure: Error, CustomStringConvertible {
    /// The answer of `POST /sandbox/requests/verify`, as it was.
    public let answer: JSON
    public let description: String

    init(_ answer: JSON) {
        self.answer = answer
        var lines = [answer["message"]?.stringValue ?? answer.serializedString()]
        let misses = answer["near_misses"]?.arrayValue ?? []
        if !misses.isEmpty { lines.append("near misses, closest first:") }
        lines += misses.map { "  " + Sandbox.nearMissLine($0) }
        description = lines.joined(separator: "\n")
    }
}

extension Sandbox {
    /// Checks that the app sent `request` `count` times (at least once by default); throws
    /// ``CashoutSandboxTesting/RequestVerificationFailure`` with the near misses when it did not, or when the request
    /// journal no longer holds what would decide it.
    public func verify(_ request: ExpectedRequest, count: RequestCount = .atLeast(1)) async throws {
        try check(["request": request.json, "count": count.json])
    }

    /// Checks that requests matching these came in this order (others may come between).
    public func verify(sequence: [ExpectedRequest]) async throws {
        try check(["sequence": .array(sequence.map(\.json))])
    }

    private func check(_ verification: JSON) throws {
        let (status, answer) = verifyRequests(verification)
        guard status == 200 else { throw RequestVerificationFailure(answer) }
    }
}
