import SandboxWire
package import SandboxSupport

/// A Postman collection (v2.1) of the payout APIs served and the admin calls, and its environment.
///
/// Each API brings its folders, its variables (an account's credentials, named as in the
/// provider's own collection: D24's `apiKey`, `apiPassphrase`, `apiSignature`, `readOnlyKey`) and
/// the lines of the collection-level pre-request script that sign its requests. Around them:
/// `baseUrl`, and `adminToken` (empty; for a sandbox started with `--admin-token`: every
/// `/sandbox/...` request sends `Authorization: Bearer {{adminToken}}`). Requests run in order
/// (Collection Runner or `.ci/check-postman`): the create requests save the ids later requests
/// use, and each request's test checks its HTTP status.
package enum PostmanCollection {
    static let schema = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"

    /// A folder of requests.
    package struct Folder: Sendable {
        package var name: String
        package var description: String
        var items: [Item]

        package init(_ name: String, _ items: [Item], _ description: String) {
            self.name = name
            self.items = items
            self.description = description
        }
    }

    /// A variable of the collection and the environment.
    package struct Variable: Sendable {
        package var key: String
        package var value: String
        /// Shown masked in the environment (a secret, a token).
        package var secret: Bool

        package init(_ key: String, _ value: String, secret: Bool = false) {
            self.key = key
            self.value = value
            self.secret = secret
        }
    }

    package static func collection(baseURL: String, apis: [APIDocsFragment]) -> JSON {
        let prerequest = apis.flatMap(\.prerequest)
        var collection: JSON = [
            "info": [
                "name": .string("CashoutSandbox: " + (apis.isEmpty ? "admin API" : apis.map(\.title).joined(separator: ", "))),
                "schema": .string(schema),
                "description": .string(description(apis)),
            ],
            "variable": .array(variables(baseURL: baseURL, apis: apis).map { ["key": .string($0.key), "value": .string($0.value)] }
                + apis.flatMap(\.sessionVariables).map { ["key": .string($0), "value": ""] }),
            "item": .array((apis.flatMap(\.folders) + [Folder("Sandbox admin", adminRequests(apis),
                                                              "The sandbox's own endpoints: clock, forced outcomes, webhooks, sink.")])
                .map(\.json)),
        ]
        if !prerequest.isEmpty { collection = collection.merging(["event": [script("prerequest", prerequest)]]) }
        return collection
    }

    package static func environment(baseURL: String, apis: [APIDocsFragment]) -> JSON {
        [
            "name": "CashoutSandbox (local)",
            "_postman_variable_scope": "environment",
            "values": .array(variables(baseURL: baseURL, apis: apis).map { variable in
                ["key": .string(variable.key), "value": .string(variable.value), "enabled": true,
                 "type": variable.secret ? "secret" : "default"]
            }),
        ]
    }

    /// The server, each API's variables (its default account's credentials), and the admin token
    /// (none by default).
    static func variables(baseURL: String, apis: [APIDocsFragment]) -> [Variable] {
        [Variable("baseUrl", baseURL)] + apis.flatMap(\.variables) + [Variable("adminToken", "", secret: true)]
    }

    static func description(_ apis: [APIDocsFragment]) -> String {
        let titles = apis.map { "the \($0.title)" }.joined(separator: ", ")
        return "A local stand-in for \(titles.isEmpty ? "payout APIs" : titles). "
            + apis.map { $0.postmanOverview + "\n\n" }.joined() + """
            A sandbox started with --admin-token wants that token on its admin API: set adminToken, which \
            every /sandbox/... request sends as Authorization: Bearer {{adminToken}}.

            To check in a request's Tests what your app sent the sandbox (request verification):

                pm.sendRequest({ url: pm.variables.get('baseUrl') + '/sandbox/requests/verify', method: 'POST',
                    header: { 'Content-Type': 'application/json' },
                    body: { mode: 'raw', raw: JSON.stringify({ request: { method: 'POST', path: '/v3/cashout', body: { country: 'BR' } },
                                                               count: { exactly: 1 } }) } },
                    function (error, answer) {
                        pm.test('the app created one BR cashout', function () {
                            pm.expect(answer.json().ok, JSON.stringify(answer.json().near_misses)).to.eql(true);
                        });
                    });
            """
    }

    // MARK: - Building blocks

    package static func script(_ listen: String, _ lines: [String]) -> JSON {
        ["listen": .string(listen), "script": ["type": "text/javascript", "exec": .array(lines.map { .string($0) })]]
    }
}

extension PostmanCollection.Folder {
    var json: JSON {
        ["name": .string(name), "description": .string(description), "item": .array(items.map(\.json))]
    }
}

extension PostmanCollection {
    /// One request of the collection, with the HTTP status its test expects.
    package struct Item: Sendable {
        var name: String
        var method: String
        /// The path and query after `{{baseUrl}}`, e.g. `/v3/banks?country=BR`.
        var path: String
        var body: String?
        var headers: [(key: String, value: String)]
        var expect: Int
        var description: String?
        /// Further lines of the test script, after the status check.
        var tests: [String]
        var prerequest: [String]

        package init(_ name: String, _ method: String, _ path: String, body: String? = nil, headers: [(key: String, value: String)] = [],
             expect: Int, description: String? = nil, tests: [String] = [], prerequest: [String] = []) {
            self.name = name
            self.method = method
            self.path = path
            self.body = body
            self.headers = headers
            self.expect = expect
            self.description = description
            self.tests = tests
            self.prerequest = prerequest
        }

        /// A request to `endpoint`: its method, and its path with each `{parameter}` replaced
        /// by `parameters`' value (a collection variable such as `{{cashoutId}}`) and `query` after it.
        package init<Server>(_ name: String, _ endpoint: Endpoint<Server>, parameters: [String: String] = [:], query: String? = nil,
                             body: String? = nil, headers: [(key: String, value: String)] = [], expect: Int, description: String? = nil,
                             tests: [String] = [], prerequest: [String] = []) {
            self.init(name, endpoint.route, parameters: parameters, query: query, body: body, headers: headers, expect: expect,
                      description: description, tests: tests, prerequest: prerequest)
        }

        /// A request to `operation` (`AdminRoute.forceCashoutAction`), its parameters and query
        /// filled in as `init(_:_:parameters:query:...)` does.
        package init(_ name: String, _ operation: APIOperation, parameters: [String: String] = [:], query: String? = nil,
                     body: String? = nil, headers: [(key: String, value: String)] = [], expect: Int, description: String? = nil,
                     tests: [String] = [], prerequest: [String] = []) {
            self.init(name, operation.route, parameters: parameters, query: query, body: body, headers: headers, expect: expect,
                      description: description, tests: tests, prerequest: prerequest)
        }

        /// A request to `route` (`"POST /sandbox/cashouts/{id}/actions"`), its parameters and
        /// query filled in as `init(_:_:parameters:query:...)` does.
        package init(_ name: String, _ route: String, parameters: [String: String] = [:], query: String? = nil,
                     body: String? = nil, headers: [(key: String, value: String)] = [], expect: Int, description: String? = nil,
                     tests: [String] = [], prerequest: [String] = []) {
            let (method, pattern) = (Router.method(of: route), Router.pattern(of: route))
            let path = pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment in
                segment.hasPrefix("{") && segment.hasSuffix("}") ? parameters[String(segment.dropFirst().dropLast())] ?? String(segment)
                                                                  : String(segment)
            }.joined(separator: "/")
            self.init(name, String(method), path + (query.map { "?" + $0 } ?? ""), body: body, headers: headers, expect: expect,
                      description: description, tests: tests, prerequest: prerequest)
        }

        /// The request its declaration describes, as a first try: named by its summary, with
        /// the first example of its body, expecting its first 2xx answer.
        package init<Server>(describing endpoint: Endpoint<Server>) {
            let operation = endpoint.describe([])
            let example = operation["requestBody"]?["content"]?["application/json"]?["examples"]?.objectValue?.sorted { $0.key < $1.key }
                .first?.value["value"]
            let expect = operation["responses"]?.objectValue?.keys.compactMap { Int($0) }.filter { (200 ..< 300).contains($0) }.min()
            self.init(operation["summary"]?.stringValue ?? endpoint.route, endpoint, body: example?.serializedString(), expect: expect ?? 200)
        }

        var json: JSON {
            var request: [String: JSON] = ["method": .string(method), "url": url]
            var headerFields = headers
            if path.hasPrefix("/sandbox/") { headerFields.append(("Authorization", "Bearer {{adminToken}}")) }
            if let body {
                headerFields.insert(("Content-Type", "application/json"), at: 0)
                request["body"] = ["mode": "raw", "raw": .string(body), "options": ["raw": ["language": "json"]]]
            }
            request["header"] = .array(headerFields.map { ["key": .string($0.key), "value": .string($0.value)] })
            if let description { request["description"] = .string(description) }
            var events = [script("test", ["pm.test('HTTP \(expect)', function () { pm.response.to.have.status(\(expect)); });"] + tests)]
            if !prerequest.isEmpty { events.insert(script("prerequest", prerequest), at: 0) }
            return ["name": .string(name), "request": .object(request), "event": .array(events)]
        }

        /// Postman's structured URL: `raw`, `host`, `path` segments and `query` pairs.
        private var url: JSON {
            let parts = path.split(separator: "?", maxSplits: 1)
            var url: [String: JSON] = [
                "raw": .string("{{baseUrl}}\(path)"), "host": ["{{baseUrl}}"],
                "path": .array(parts[0].split(separator: "/").map { .string(String($0)) }),
            ]
            if parts.count == 2 {
                url["query"] = .array(parts[1].split(separator: "&").map { pair in
                    let keyValue = pair.split(separator: "=", maxSplits: 1)
                    return ["key": .string(String(keyValue[0])), "value": .string(keyValue.count == 2 ? String(keyValue[1]) : "")]
                })
            }
            return .object(url)
        }
    }

    // MARK: - Bodies and test lines

    /// A body value: a JSON string, or `.literal` JSON text (a number, or a variable holding one).
    package enum BodyValue: ExpressibleByStringLiteral {
        case string(String)
        case literal(String)

        package init(stringLiteral value: String) {
            self = .string(value)
        }
    }

    /// A JSON body written out in the order given, one member a line, as a person would type it.
    package static func body(_ members: KeyValuePairs<String, BodyValue>) -> String {
        body(members.map { ($0.key, $0.value) })
    }

    package static func body(_ members: [(String, BodyValue)]) -> String {
        let lines = members.map { key, value in
            switch value {
            case .string(let text): "    \"\(key)\": \"\(text)\""
            case .literal(let text): "    \"\(key)\": \(text)"
            }
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}"
    }

    /// A test line checking one member of the JSON answer: `expect("code", "302")`.
    package static func expect(_ member: String, _ javaScriptValue: String) -> String {
        let title = String(javaScriptValue.map { $0 == "'" ? "\"" : $0 })
        return "pm.test('\(member) is \(title)', function () { pm.expect(pm.response.json().\(member)).to.eql(\(javaScriptValue)); });"
    }

    /// `text` as a single-quoted JavaScript string.
    package static func javaScript(_ text: String) -> String {
        "'" + text.map { $0 == "'" || $0 == "\\" ? "\\\($0)" : String($0) }.joined() + "'"
    }

    /// A test line saving a member of the JSON answer in a collection variable.
    package static func save(_ member: String, as variable: String) -> String {
        "pm.collectionVariables.set('\(variable)', String(pm.response.json().\(member)));"
    }
}
