public import CashoutSandbox
public import SandboxSupport

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
    ///
    /// - Parameters:
    ///   - method: The HTTP method (`"POST"`); nil (the default): any.
    ///   - path: The path's matcher (`"/v3/cashout"`, `.prefix("/v3/")`); nil (the default): any.
    ///   - dialect: The API the request was for (`d24`, `mannco`, `prism`); nil (the default): any.
    ///   - headers: Matchers of header fields by name, any case; none by default.
    ///   - body: Matchers of body fields by name, a dotted name reaching inside; none by default.
    /// - Returns: The expected request, for `verify(_:count:)` or `verify(sequence:)`.
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

    /// A `POST` to `path`, exactly, with any header and body field matchers.
    ///
    /// - Parameters:
    ///   - path: The whole path (`"/v3/cashout"`).
    ///   - headers: Matchers of header fields by name, any case; none by default.
    ///   - body: Matchers of body fields by name, a dotted name reaching inside; none by default.
    /// - Returns: The expected request, for `verify(_:count:)` or `verify(sequence:)`.
    public static func post(_ path: String, headers: [String: FieldMatch] = [:], body: [String: FieldMatch] = [:]) -> ExpectedRequest {
        request(method: "POST", path: .equals(path), headers: headers, body: body)
    }

    /// A `PUT` to `path`, exactly, with any header and body field matchers.
    ///
    /// - Parameters:
    ///   - path: The whole path (`"/v3/cashout"`).
    ///   - headers: Matchers of header fields by name, any case; none by default.
    ///   - body: Matchers of body fields by name, a dotted name reaching inside; none by default.
    /// - Returns: The expected request, for `verify(_:count:)` or `verify(sequence:)`.
    public static func put(_ path: String, headers: [String: FieldMatch] = [:], body: [String: FieldMatch] = [:]) -> ExpectedRequest {
        request(method: "PUT", path: .equals(path), headers: headers, body: body)
    }

    /// A `GET` to `path`, exactly, with any header matchers.
    ///
    /// - Parameters:
    ///   - path: The whole path (`"/v3/cashout"`).
    ///   - headers: Matchers of header fields by name, any case; none by default.
    /// - Returns: The expected request, for `verify(_:count:)` or `verify(sequence:)`.
    public static func get(_ path: String, headers: [String: FieldMatch] = [:]) -> ExpectedRequest {
        request(method: "GET", path: .equals(path), headers: headers)
    }

    /// A `DELETE` to `path`, exactly, with any header and body field matchers.
    ///
    /// - Parameters:
    ///   - path: The whole path (`"/v3/cashout"`).
    ///   - headers: Matchers of header fields by name, any case; none by default.
    ///   - body: Matchers of body fields by name, a dotted name reaching inside; none by default.
    /// - Returns: The expected request, for `verify(_:count:)` or `verify(sequence:)`.
    public static func delete(_ path: String, headers: [String: FieldMatch] = [:], body: [String: FieldMatch] = [:]) -> ExpectedRequest {
        request(method: "DELETE", path: .equals(path), headers: headers, body: body)
    }
}

/// A test of one value, as scenario files write matchers: a string literal is an exact text,
/// an integer literal an exact amount (`100` equals `"100.00"`); amounts compare as decimals.
public struct FieldMatch: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    /// The matcher as a scenario file writes it: `"BR"`, `{"gte": "100.00"}`.
    public let json: JSON

    /// An exact text: `"BR"`.
    ///
    /// - Parameters:
    ///   - value: The text the value must be.
    public init(stringLiteral value: String) { json = .string(value) }
    /// An exact amount, compared as a decimal: `100` equals `"100.00"`.
    ///
    /// - Parameters:
    ///   - value: The amount the value must be, in the field's own units (Mannco's amounts are cents).
    public init(integerLiteral value: Int) { json = .number(String(value)) }
    private init(_ json: JSON) { self.json = json }

    /// Exactly `text`, as a string literal is.
    ///
    /// - Parameters:
    ///   - text: The text the value must be.
    /// - Returns: The matcher.
    public static func equals(_ text: String) -> FieldMatch { FieldMatch(.string(text)) }
    /// Exactly one of `texts`: `.oneOf(["BR", "MX"])`.
    ///
    /// - Parameters:
    ///   - texts: The texts allowed.
    /// - Returns: The matcher.
    public static func oneOf(_ texts: [String]) -> FieldMatch { FieldMatch(["in": .array(texts.map(JSON.string))]) }
    /// Starts with `text`.
    ///
    /// - Parameters:
    ///   - text: The text the value must start with.
    /// - Returns: The matcher.
    public static func prefix(_ text: String) -> FieldMatch { FieldMatch(["prefix": .string(text)]) }
    /// Ends with `text`.
    ///
    /// - Parameters:
    ///   - text: The text the value must end with.
    /// - Returns: The matcher.
    public static func suffix(_ text: String) -> FieldMatch { FieldMatch(["suffix": .string(text)]) }
    /// The whole value matches `pattern`.
    ///
    /// - Parameters:
    ///   - pattern: A regular expression, in Swift Regex syntax.
    /// - Returns: The matcher.
    public static func regex(_ pattern: String) -> FieldMatch { FieldMatch(["regex": .string(pattern)]) }
    /// A decimal amount greater than `amount`.
    ///
    /// - Parameters:
    ///   - amount: A whole amount, in the field's own units (Mannco's amounts are cents).
    /// - Returns: The matcher.
    public static func gt(_ amount: Int) -> FieldMatch { FieldMatch(["gt": .number(String(amount))]) }
    /// A decimal amount greater than or equal to `amount`.
    ///
    /// - Parameters:
    ///   - amount: A whole amount, in the field's own units (Mannco's amounts are cents).
    /// - Returns: The matcher.
    public static func gte(_ amount: Int) -> FieldMatch { FieldMatch(["gte": .number(String(amount))]) }
    /// A decimal amount less than `amount`.
    ///
    /// - Parameters:
    ///   - amount: A whole amount, in the field's own units (Mannco's amounts are cents).
    /// - Returns: The matcher.
    public static func lt(_ amount: Int) -> FieldMatch { FieldMatch(["lt": .number(String(amount))]) }
    /// A decimal amount less than or equal to `amount`.
    ///
    /// - Parameters:
    ///   - amount: A whole amount, in the field's own units (Mannco's amounts are cents).
    /// - Returns: The matcher.
    public static func lte(_ amount: Int) -> FieldMatch { FieldMatch(["lte": .number(String(amount))]) }
    /// An amount with decimals, as text: `.gte("100.50")`.
    ///
    /// - Parameters:
    ///   - amount: A decimal amount with at most two decimals, as text (`"100.50"`).
    /// - Returns: The matcher.
    public static func gte(_ amount: String) -> FieldMatch { FieldMatch(["gte": .string(amount)]) }
    /// An amount with decimals, as text: `.lte("100.50")`.
    ///
    /// - Parameters:
    ///   - amount: A decimal amount with at most two decimals, as text (`"100.50"`).
    /// - Returns: The matcher.
    public static func lte(_ amount: String) -> FieldMatch { FieldMatch(["lte": .string(amount)]) }
}

/// How many requests a verification wants.
public enum RequestCount: Sendable {
    /// Exactly this many requests match, no more and no fewer (`{"exactly": n}`).
    case exactly(Int)
    /// This many requests or more match (`{"at_least": n}`); `.atLeast(1)`: the request came.
    case atLeast(Int)
    /// This many requests or fewer match (`{"at_most": n}`); `.atMost(0)`: the request never came.
    case atMost(Int)

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
    /// The message, then each near miss with its differences.
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
    ///
    /// - Parameters:
    ///   - request: The request to look for among those logged.
    ///   - count: How many must match: `.exactly(n)`, `.atLeast(n)` or `.atMost(n)`; `.atLeast(1)` by default.
    /// - Throws: ``CashoutSandboxTesting/RequestVerificationFailure``, with the near misses, when the count is not met or cannot be
    ///   told, or when a matcher is not one (a regular expression or an amount that does not parse).
    public func verify(_ request: ExpectedRequest, count: RequestCount = .atLeast(1)) async throws {
        try check(["request": request.json, "count": count.json])
    }

    /// Checks that requests matching these came in this order (others may come between).
    ///
    /// - Parameters:
    ///   - sequence: The requests, in the order they must have come.
    /// - Throws: ``CashoutSandboxTesting/RequestVerificationFailure``, with the near misses, when they did not come in this order or
    ///   the request journal no longer holds what would decide it, or when a matcher is not one.
    public func verify(sequence: [ExpectedRequest]) async throws {
        try check(["sequence": .array(sequence.map(\.json))])
    }

    private func check(_ verification: JSON) throws {
        let (status, answer) = verifyRequests(verification)
        guard status == 200 else { throw RequestVerificationFailure(answer) }
    }
}
