package import SandboxWire
package import SandboxSupport

// How far a logged request is from a pattern: one difference per part it fails, worded as
// WireMock's near-miss report words them (`body.amount: expected >= 100, got "50.00"`). None: it
// matches.

extension RequestPattern {
    /// What a request holds for a pattern to test: its parts as the journal keeps them, and its
    /// body as JSON (nil when it has none a pattern can read; `bodyCut` when the journal cut it).
    package struct Subject {
        package let method: String
        package let path: String
        package let dialect: String?
        package let headers: HTTPHeaders
        package let body: JSON?
        let bodyCut: Bool

        package init(method: String, path: String, dialect: String?, headers: HTTPHeaders, body: JSON?, bodyCut: Bool) {
            (self.method, self.path, self.dialect, self.headers, self.body, self.bodyCut) = (method, path, dialect, headers, body, bodyCut)
        }
    }

    /// The ways `subject` differs from the pattern, in the pattern's order; empty when it matches.
    package func differences(_ subject: Subject) -> [String] {
        var found: [String] = []
        func test(_ name: String, _ matcher: Matcher?, _ value: String?) {
            guard let matcher, !matcher.matches(value) else { return }
            found.append("\(name): expected \(matcher), got \(value.map { JSON.string($0).serializedString() } ?? "none")")
        }
        test("method", method, subject.method)
        test("path", path, subject.path)
        test("dialect", dialect, subject.dialect)
        for (name, matcher) in headers { test("headers.\(name)", matcher, subject.headers[name]) }
        guard !body.isEmpty else { return found }
        guard let json = subject.body else {
            found.append(subject.bodyCut ? "body: cut in the journal (over its body limit): its fields cannot be read"
                                         : "body: expected a JSON, form, gRPC or Connect body, got none the sandbox can read")
            return found
        }
        for field in body { test("body." + field.path.joined(separator: "."), field.matcher, Self.text(at: field.path, in: json)) }
        return found
    }

    /// The text of the value at `path` (a string as it is, a number as written, an object or an
    /// array as JSON), nil when absent or null; each key found as written or in the other case style.
    static func text(at path: [String], in json: JSON) -> String? {
        var value = json
        for key in path {
            guard case .object(let members) = value, let next = members[key] ?? members[otherCase(key)] else { return nil }
            value = next
        }
        switch value {
        case .string(let text), .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return nil
        default: return value.serializedString()
        }
    }

    /// `snake_case` for `lowerCamelCase` and the other way round (proto3 JSON accepts both).
    static func otherCase(_ key: String) -> String {
        if key.contains("_") {
            let words = key.split(separator: "_")
            return String(words.first ?? "") + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        }
        return key.reduce(into: "") { out, character in
            if character.isUppercase { out += "_" + character.lowercased() } else { out.append(character) }
        }
    }
}
