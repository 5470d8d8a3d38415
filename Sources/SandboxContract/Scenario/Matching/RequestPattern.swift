package import SandboxSupport

/// What a logged request must be to count in a verification (`POST /sandbox/requests/verify`,
/// `Sandbox.verify`, the `expect_requests` step): its `method`, `path`, `dialect`, `headers` and
/// `body` fields, each optional, each tested by a scenario file's matcher (an exact value, or
/// `{"prefix": …}`, `{"regex": …}`, `{"in": […]}`, `{"gte": …}`…; amounts compare as decimals).
///
/// `body` is an object of field: matcher over the request's body as JSON: a JSON body as it is,
/// a form's fields as strings, a gRPC or Connect message as proto3 JSON. A nested object that is
/// no matcher (its keys are not operators) tests the fields inside; `"a.b"` is the same as
/// `{"a": {"b": …}}`; a field is found by its `snake_case` or `lowerCamelCase` name alike.
///
/// ```swift
/// let pattern = try RequestPattern.read(ScenarioNode(value: ["method": "POST", "path": "/v3/cashout",
///                                                            "body": ["amount": ["gte": 100]]], path: "request", file: "request body"))
/// ```
package struct RequestPattern: Sendable {
    /// One tested body field: its path from the body's top (`["beneficiary", "name"]`).
    package struct BodyField: Sendable {
        package let path: [String]
        let matcher: Matcher
    }

    package var method: Matcher?
    package var path: Matcher?
    package var dialect: Matcher?
    /// By lowercase name.
    package var headers: [(name: String, matcher: Matcher)] = []
    package var body: [BodyField] = []
    /// The pattern as it was written, for answers (`expected`).
    package var json: JSON

    init(json: JSON) {
        self.json = json
    }

    static let keys = ScenarioFormat.Keys.requestPattern

    /// It tests nothing: every request matches.
    var isEmpty: Bool { method == nil && path == nil && dialect == nil && headers.isEmpty && body.isEmpty }

    package static func read(_ node: ScenarioNode) throws(ScenarioError) -> RequestPattern {
        let parts = try node.object(allowed: keys)
        var pattern = RequestPattern(json: node.value)
        pattern.method = try parts["method"].map(ScenarioLoader.readMatcher)
        pattern.path = try parts["path"].map(ScenarioLoader.readMatcher)
        pattern.dialect = try parts["dialect"].map(ScenarioLoader.readMatcher)
        if let headers = parts["headers"] {
            guard case .object(let members) = headers.value else { throw headers.fail("expected an object of header name: matcher") }
            for name in members.keys.sorted() {
                pattern.headers.append((name.lowercased(), try ScenarioLoader.readMatcher(headers.child(name, members[name]!))))
            }
        }
        if let body = parts["body"] { pattern.body = try bodyFields(body, under: []) }
        return pattern
    }

    /// The fields an object of field: matcher tests, nested objects flattened into paths.
    private static func bodyFields(_ node: ScenarioNode, under prefix: [String]) throws(ScenarioError) -> [BodyField] {
        guard case .object(let members) = node.value else { throw node.fail("expected an object of field: matcher") }
        var fields: [BodyField] = []
        for key in members.keys.sorted() {
            let child = node.child(key, members[key]!)
            let path = prefix + key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if case .object(let inner) = child.value, !inner.isEmpty, !inner.keys.allSatisfy(ScenarioLoader.matcherOperators.contains) {
                fields += try bodyFields(child, under: path)
            } else {
                fields.append(BodyField(path: path, matcher: try ScenarioLoader.readMatcher(child)))
            }
        }
        return fields
    }
}
