import SandboxSupport

// The request log, `GET` and `DELETE /sandbox/requests`, as
// Sources/CashoutSandbox/Admin/AdminAPI+Requests.swift serves it and RequestLog+JSON writes
// its entries.

extension OpenAPIDocument {
    static func requestLogEndpoints<Admin: AdminServing>() -> [Endpoint<Admin>] {
        [
            Endpoint<Admin>(AdminRoute.listRequests, describedAmong: { apis in
                let dialects = apis.map(\.dialect)
                return OpenAPI.operation(
                tag: "Sandbox", summary: "The request journal",
                description: """
                    The newest requests to the payout APIs (matched or not; not the admin API's, the dashboard's or the \
                    documents'), newest first, each with its answer, the route and API, why an authentication was refused \
                    (`diagnosis`) and, on a 404 or 405, the route most likely meant (`near_miss`).
                    """,
                parameters: [
                    OpenAPI.query("limit", Schema.integer(example: 100, minimum: AdminLimits.requestLimitMinimum, maximum: Int.max),
                                  "At most this many (default 100)"),
                    OpenAPI.query("path", Schema.string(example: "/v3/cashout"), "Only paths starting with this"),
                    OpenAPI.query("status", Schema.string(example: "4xx", pattern: "^[1-5]([0-9]{2}|[xX]{2})$"),
                                  "Only this answer status (`401`) or class (`4xx`); a gRPC call, HTTP 200 whatever its outcome, "
                                      + "by the status Connect gives its `grpc-status` (`UNAUTHENTICATED` 401)"),
                    OpenAPI.query("dialect", Schema.oneOf(dialects), "Only this API's routes"),
                ],
                responses: [
                    "200": OpenAPI.json("The requests", Schema.ref("RequestJournal")),
                    "400": OpenAPI.error(400, AdminMessage.requestLimit,
                                         "status: expected a status code such as 401, or a class such as 4xx",
                                         "dialect: expected one of \(dialects.sorted().joined(separator: ", "))"),
                ])
            }) { $0.listRequests($1) },
            Endpoint<Admin>(AdminRoute.verifyRequests, OpenAPI.operation(
                tag: "Sandbox", summary: "Verify what the payout APIs received",
                description: """
                    Request verification, as WireMock's and MockServer's: how many journaled requests match `request` \
                    (each of `method`, `path`, `dialect`, `headers` and `body` optional, each a scenario file's matcher: \
                    a value, or `{"prefix"}`, `{"regex"}`, `{"in"}`, `{"gte"}`...; `body` fields of a JSON, form, gRPC or \
                    Connect body as JSON, amounts compared as decimals), against `count` (`exactly`, `at_least` or \
                    `at_most`; default at least 1); or whether requests matching `sequence` came in that order. A \
                    verification that needs requests the journal pushed out since it was last cleared is answered 409, \
                    never guessed: `serve --request-journal N` keeps more.
                    """,
                body: OpenAPI.body(Schema.ref("RequestVerification"), examples: [
                    "count": ["request": ["method": "POST", "path": "/v3/cashout", "dialect": "d24",
                                          "body": ["amount": ["gte": 100], "country": "BR"]], "count": ["exactly": 2]],
                    "sequence": ["sequence": [["path": "/v3/cashout"], ["method": "POST", "path": "/v3/cashout/status"]]],
                ]),
                responses: [
                    "200": OpenAPI.json("It holds", Schema.ref("RequestVerificationAnswer"), example: ["ok": true, "count": 2]),
                    "422": OpenAPI.json("It does not hold: the requests closest to it, with their differences",
                                        Schema.ref("RequestVerificationAnswer")),
                    "409": OpenAPI.json("Unknowable: the journal no longer holds requests that would decide it",
                                        Schema.ref("RequestVerificationAnswer")),
                    "400": OpenAPI.error(400, #"request.methd: unknown key (did you mean "method"? "#
                                             + "expected one of: method, path, dialect, headers, body)"),
                ])) { $0.verifyRequests($1) },
            Endpoint<Admin>(AdminRoute.clearRequests, OpenAPI.operation(
                tag: "Sandbox", summary: "Clear the request journal",
                description: "Forgets every request journaled so far; ids go on increasing.",
                responses: ["204": OpenAPI.empty("Cleared")])) { $0.clearRequests($1) },
        ]
    }

    static var requestLogSchemas: [String: JSON] {
        let body: [String: JSON] = [
            "body": Schema.string("The body as text, base64, or a gRPC message as proto3 JSON (see `body_encoding`)"),
            "body_encoding": Schema.oneOf(["utf8", "base64", "json-from-protobuf"]),
            "body_truncated": Schema.boolean("Cut at the journal's bound (16 KiB by default)"),
        ]
        let headers = Schema.map(of: Schema.string(), description: "By lowercase name; repeated fields joined with \", \"")
        // As ScenarioLoader.readMatcher reads it: a scenario file's matcher, whose amounts' form the schema says.
        let matcher = Schema.ref("\(scenarioSchema).matcher")
        let request = body.merging([
            "id": Schema.integer("Increasing from 1, never reused", example: 17), "at": Schema.time("When it arrived, on the virtual clock"),
            "received_at": Schema.string("When it arrived, on the wall clock", example: "2026-11-24T10:11:12.345Z"),
            "method": Schema.string(example: "POST"), "path": Schema.string(example: "/v3/cashout"),
            "query": Schema.nullable("string", "After `?`, as sent"), "protocol": Schema.oneOf(["HTTP/1.0", "HTTP/1.1", "HTTP/2"]),
            "headers": headers,
            "route": Schema.nullable("string", "The route that answered; null: none matched", example: "POST /v3/cashout"),
            "dialect": Schema.nullable("string", "The API of the route", example: "d24"),
            "response": Schema.object(body.merging([
                "status": Schema.integer("0: the connection was closed without an answer (a fault)", example: 401),
                "headers": Schema.map(of: Schema.string(), description: "By lowercase name, a gRPC answer's trailers among them"),
            ]) { $1 }, required: ["status", "headers", "body", "body_encoding", "body_truncated"]),
            "diagnosis": Schema.either(["object", "null"], """
                Why an authentication was refused: `check` (unknown_login, wrong_pass, signature_missing, signature_mismatch, \
                ip_not_allowed, missing_credentials, authorization_missing, authorization_scheme, unknown_read_only_key, \
                token_missing, jwt_invalid, jwt_expired, unknown_user, unknown_api_key, metadata, unknown_merchant, wrong_key), \
                `message`, and what the check compared (`expected_signature`, `received_signature`, `secret`, `likely_cause`...)
                """),
            "near_miss": Schema.nullable("string", "On a 404 or 405: the route most likely meant", example: "DELETE /v3/cashout/cancel"),
        ]) { $1 }
        return [
            "RequestJournal": Schema.object([
                "requests": Schema.array(of: Schema.ref("JournaledRequest"), description: "Newest first"),
                "kept": Schema.integer("Entries held now", example: 37), "capacity": Schema.integer("The bound", example: 1000),
            ], required: ["requests", "kept", "capacity"]),
            "JournaledRequest": Schema.object(request, required: request.keys.sorted()),
            "RequestPattern": Schema.object([
                "method": matcher, "path": matcher, "dialect": matcher,
                "headers": Schema.map(of: matcher, description: "Header name (any case): matcher"),
                "body": Schema.object([:], open: true),
            ]),
            // As RequestVerification.read takes it: a pattern with a count of one bound, or a sequence, never both.
            "RequestVerification": Schema.exactlyOne([
                Schema.object([
                    "request": Schema.ref("RequestPattern"),
                    "count": Schema.exactlyOne(RequestVerification.countForms.map { form in
                        Schema.object([form: Schema.integer(minimum: RequestVerification.countRange.lowerBound,
                                                            maximum: RequestVerification.countRange.upperBound)], required: [form])
                    }, description: "One bound; default at least 1"),
                ]),
                Schema.object(["sequence": Schema.array(of: Schema.ref("RequestPattern"), description: "Requests matching these came in this order")
                    .merging(["minItems": 1])], required: ["sequence"]),
            ], description: "`request` (any request when absent) with a `count`, or a `sequence`"),
            "RequestVerificationAnswer": Schema.object([
                "ok": Schema.boolean(), "count": Schema.integer("Requests that match (of a sequence: its requests found in order)"),
                "expected": Schema.ref("RequestVerification"), "message": Schema.string(),
                "near_misses": Schema.array(of: Schema.object([:], open: true),
                                            description: "Journaled requests closest to it, each with its `differences`"),
                "unknowable": Schema.boolean("The journal no longer holds what would decide it"),
            ], required: ["ok"]),
        ]
    }
}
