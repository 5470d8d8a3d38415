import SandboxJSON

/// A Postman collection (v2.1) of every D24 endpoint and the admin calls, and its environment.
///
/// The variables are named as in the provider's own collection: `apiKey` (the `login`),
/// `apiPassphrase` (the `pass`) and `apiSignature` (the secret), plus `baseUrl`, `readOnlyKey` and
/// `adminToken` (empty; for a sandbox started with `--admin-token`: every `/sandbox/...` request
/// sends `Authorization: Bearer {{adminToken}}`).
/// A collection-level pre-request script signs every `/v3/cashout...` body with
/// `Payload-Signature`, computed over the body after `{{variable}}` substitution, which is what
/// Postman sends. Requests run in order (Collection Runner or `.ci/check-postman`): the create
/// requests save the ids later requests use, and each request's test checks its HTTP status.
public enum PostmanCollection {
    static let schema = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"

    public static func collection(baseURL: String) -> JSON {
        [
            "info": [
                "name": "CashoutSandbox: D24 Cashouts API v3",
                "schema": .string(schema),
                "description": .string(description),
            ],
            "variable": .array(variables(baseURL: baseURL).map { ["key": .string($0.key), "value": .string($0.value)] }
                + sessionVariables.map { ["key": .string($0), "value": ""] }),
            "event": [script("prerequest", signatureScript)],
            "item": [
                folder("D24 Cashouts API v3", d24Requests, "The merchant's calls, in the order of a cashout's life."),
                folder("Errors", errorRequests, "Refusals with the provider's codes and messages."),
                folder("Sandbox admin", adminRequests, "The sandbox's own endpoints: clock, forced outcomes, webhooks, sink."),
            ],
        ]
    }

    public static func environment(baseURL: String) -> JSON {
        [
            "name": "CashoutSandbox (local)",
            "_postman_variable_scope": "environment",
            "values": .array(variables(baseURL: baseURL).map { variable in
                ["key": .string(variable.key), "value": .string(variable.value), "enabled": true,
                 "type": variable.key == "apiSignature" || variable.key == "adminToken" ? "secret" : "default"]
            }),
        ]
    }

    /// The default merchant's credentials (README, "The default merchant"), the server, and the
    /// admin token (none by default).
    static func variables(baseURL: String) -> [(key: String, value: String)] {
        [("baseUrl", baseURL), ("apiKey", "sandbox_login"), ("apiPassphrase", "sandbox_pass"),
         ("apiSignature", "sandbox_secret"), ("readOnlyKey", "sandbox_read_only"), ("adminToken", "")]
    }

    /// Collection variables the requests' scripts set as the run goes.
    static let sessionVariables = [
        "newExternalId", "externalId", "cashoutId", "adminExternalId", "adminCashoutId", "rejectExternalId", "rejectCashoutId",
        "timelineExternalId", "timelineCashoutId", "webhookId",
    ]

    static let description = """
        A local stand-in for the D24 Cashouts API v3. Import this collection with its environment \
        (GET /postman/environment.json), or use the collection variables as they are: the default \
        merchant sandbox_login / sandbox_pass / sandbox_secret (read-only key sandbox_read_only).

        The collection's pre-request script signs every /v3/cashout body: Payload-Signature is the \
        lowercase hex HMAC-SHA256 of the body, after variable substitution, with apiSignature.

        Run the folders in order (Collection Runner): creates save cashoutId and friends for the \
        requests after them. On a real clock a cashout is DELIVERED 5 s after its creation; run the \
        sandbox with --clock manual to keep it PENDING until the clock is advanced.

        A sandbox started with --admin-token wants that token on its admin API: set adminToken, which \
        every /sandbox/... request sends as Authorization: Bearer {{adminToken}}.
        """

    /// A fresh `external_id` for each create, then `Payload-Signature` for the signed endpoints,
    /// exactly as Postman runs it. Both happen here because the collection's script runs before a
    /// request's own: an id set by the request's script would come after the signature.
    static let signatureScript = [
        "if (/\\/v3\\/cashout/.test(pm.request.url.toString()) && pm.request.body && pm.request.body.raw) {",
        "    // A body that asks for {{newExternalId}} gets a new one on every send.",
        "    if (pm.request.body.raw.includes('{{newExternalId}}')) {",
        "        pm.collectionVariables.set('newExternalId', 'postman-' + Date.now() + '-' + Math.floor(Math.random() * 1e6));",
        "    }",
        "    // Payload-Signature: lowercase hex HMAC-SHA256 of the body Postman sends (after {{variable}}",
        "    // substitution), keyed by the merchant's API signature.",
        "    const body = pm.variables.replaceIn(pm.request.body.raw);",
        "    const signature = CryptoJS.HmacSHA256(body, pm.variables.get('apiSignature')).toString(CryptoJS.enc.Hex);",
        "    pm.request.headers.upsert({ key: 'Payload-Signature', value: signature });",
        "}",
    ]

    // MARK: - Building blocks

    static func folder(_ name: String, _ requests: [Item], _ description: String) -> JSON {
        ["name": .string(name), "description": .string(description), "item": .array(requests.map(\.json))]
    }

    static func script(_ listen: String, _ lines: [String]) -> JSON {
        ["listen": .string(listen), "script": ["type": "text/javascript", "exec": .array(lines.map { .string($0) })]]
    }
}

extension PostmanCollection {
    /// One request of the collection, with the HTTP status its test expects.
    struct Item {
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

        init(_ name: String, _ method: String, _ path: String, body: String? = nil, headers: [(key: String, value: String)] = [],
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
    enum BodyValue: ExpressibleByStringLiteral {
        case string(String)
        case literal(String)

        init(stringLiteral value: String) {
            self = .string(value)
        }
    }

    /// A JSON body written out in the order given, one member a line, as a person would type it.
    static func body(_ members: KeyValuePairs<String, BodyValue>) -> String {
        body(members.map { ($0.key, $0.value) })
    }

    static func body(_ members: [(String, BodyValue)]) -> String {
        let lines = members.map { key, value in
            switch value {
            case .string(let text): "    \"\(key)\": \"\(text)\""
            case .literal(let text): "    \"\(key)\": \(text)"
            }
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}"
    }

    /// A test line checking one member of the JSON answer: `expect("code", "302")`.
    static func expect(_ member: String, _ javaScriptValue: String) -> String {
        let title = String(javaScriptValue.map { $0 == "'" ? "\"" : $0 })
        return "pm.test('\(member) is \(title)', function () { pm.expect(pm.response.json().\(member)).to.eql(\(javaScriptValue)); });"
    }

    /// A test line saving a member of the JSON answer in a collection variable.
    static func save(_ member: String, as variable: String) -> String {
        "pm.collectionVariables.set('\(variable)', String(pm.response.json().\(member)));"
    }
}
