// SandboxSupport: a small, strict, Foundation-free JSON value type with a parser and a
// deterministic writer, following RFC 8259 (The JavaScript Object Notation Data
// Interchange Format). Numbers are kept as their literal text so that monetary amounts
// never pass through a binary floating-point type.

/// A JSON value (RFC 8259) whose numbers keep their exact literal text.
///
/// Numbers are stored as text (`.number("100.50")`), never as `Double`, so decimal amounts
/// survive a parse/serialize round trip unchanged. Equality is structural and textual:
/// `.number("1.0")` and `.number("1")` are different values. Object keys and string values
/// are Swift `String`s, so they compare by Unicode canonical equivalence.
///
/// ```swift
/// let request = try JSON.parse(#"{"amount":"100.50","currency":"EUR","retries":3}"#)
/// let amount = request["amount"]?.stringValue          // "100.50"
/// let retries = request["retries"]?.numberText         // "3"
///
/// let response: JSON = ["id": "po_1", "amount": .number("100.50"), "final": true]
/// let body: [UInt8] = response.serialized()
/// // {"amount":100.50,"final":true,"id":"po_1"}
/// ```
public enum JSON: Sendable, Hashable {
    /// The JSON literal `null`.
    case null
    /// The JSON literal `true` or `false`.
    case bool(Bool)
    /// A JSON number, stored as its exact literal text (for example `"100.50"`, `"1e3"`, `"-0"`).
    ///
    /// The writer emits this text verbatim, so it must be a valid RFC 8259 number; values
    /// produced by the parser, by integer literals, or by `JSON.number(_: Int)` always are.
    case number(String)
    /// A JSON string.
    case string(String)
    /// A JSON array.
    case array([JSON])
    /// A JSON object. Keys are unique; member order is not preserved (the writer sorts keys).
    case object([String: JSON])
}

extension JSON {
    /// Creates a number from an integer, stored as its decimal text (for example `"-42"`).
    public static func number(_ value: Int) -> JSON {
        .number(String(value))
    }

    /// Creates an object value from a dictionary.
    public init(_ dictionary: [String: JSON]) {
        self = .object(dictionary)
    }
}

// MARK: - Accessors

extension JSON {
    /// The member named `key` if this is an object that has it; otherwise `nil`.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` if this is an array and `index` is in bounds; otherwise `nil`.
    public subscript(index: Int) -> JSON? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string if this is a JSON string; otherwise `nil`.
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The Boolean if this is `true` or `false`; otherwise `nil`.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The exact literal text if this is a number (for example `"100.50"`); otherwise `nil`.
    public var numberText: String? {
        guard case .number(let text) = self else { return nil }
        return text
    }

    /// The number as an `Int` when it is a whole one (`100`, `100.0`, `1e2`: what JSON Schema counts
    /// as an `integer`) in `Int`'s range; otherwise `nil` (`100.5`, a string, ...).
    public var integerValue: Int? {
        guard case .number(let text) = self else { return nil }
        if let value = Int(text) { return value }
        var rest = Substring(text)
        let sign = rest.first == "-" ? "-" : ""
        if !sign.isEmpty { rest = rest.dropFirst() }
        let whole = rest.prefix { $0.isASCII && $0.isNumber }
        guard !whole.isEmpty else { return nil }
        rest = rest.dropFirst(whole.count)
        var fraction = Substring("")
        if rest.first == "." {
            fraction = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard !fraction.isEmpty else { return nil }
            rest = rest.dropFirst(fraction.count + 1)
        }
        var exponent = 0
        if let marker = rest.first, marker == "e" || marker == "E" {
            let digits = rest.dropFirst().drop { $0 == "+" || $0 == "-" }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(rest.dropFirst().drop { $0 == "+" }),
                  abs(value) <= 40 else { return nil }
            exponent = value
        } else if !rest.isEmpty {
            return nil
        }
        var digits = String(whole + fraction)
        exponent -= fraction.count
        if exponent >= 0 {
            digits += String(repeating: "0", count: exponent)
        } else {
            guard digits.suffix(-exponent).allSatisfy({ $0 == "0" }) else { return nil }
            digits = String(digits.dropLast(-exponent))
        }
        return Int(sign + (digits.isEmpty ? "0" : digits))
    }

    /// The members if this is an object; otherwise `nil`.
    public var objectValue: [String: JSON]? {
        guard case .object(let members) = self else { return nil }
        return members
    }

    /// The elements if this is an array; otherwise `nil`.
    public var arrayValue: [JSON]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// Whether this is the JSON literal `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

// MARK: - Literals

extension JSON: ExpressibleByNilLiteral {
    /// Creates `.null` from the `nil` literal.
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension JSON: ExpressibleByBooleanLiteral {
    /// Creates `.bool` from a Boolean literal.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSON: ExpressibleByIntegerLiteral {
    /// Creates `.number` from an integer literal, stored as its decimal text.
    public init(integerLiteral value: Int) {
        self = .number(String(value))
    }
}

extension JSON: ExpressibleByStringLiteral {
    /// Creates `.string` from a string literal.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSON: ExpressibleByArrayLiteral {
    /// Creates `.array` from an array literal.
    public init(arrayLiteral elements: JSON...) {
        self = .array(elements)
    }
}

extension JSON: ExpressibleByDictionaryLiteral {
    /// Creates `.object` from a dictionary literal; if a key repeats, the last value wins.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        var members: [String: JSON] = [:]
        members.reserveCapacity(elements.count)
        for (key, value) in elements {
            members[key] = value
        }
        self = .object(members)
    }
}
