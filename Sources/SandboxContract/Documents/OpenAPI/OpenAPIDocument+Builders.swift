import SandboxWire
package import SandboxSupport

// The small vocabulary the OpenAPI document is written in: schemas (OpenAPI 3.1 uses JSON Schema
// draft 2020-12, so `null` is a type), parameters, responses and operations. Every error body
// the sandbox sends has the same shape, so error responses are built from (code, message) pairs.

/// One documented operation: its route as the router spells it (`"POST /v3/cashout"`) and its
/// OpenAPI operation object.
package struct OpenAPIEndpoint: Sendable {
    let route: String
    let operation: JSON

    init(route: String, operation: JSON) {
        self.route = route
        self.operation = operation
    }

    /// `operation`'s endpoint: its route, and `description` (made without an id) under its id.
    package init(_ operation: APIOperation, _ description: JSON) {
        self.init(route: operation.route, operation: description.merging(["operationId": .string(operation.id)]))
    }

    /// The route's method in lowercase, as an OpenAPI path item keys it (`post`).
    var method: String { Router.method(of: route).lowercased() }

    /// The route's path (`/v3/cashout`).
    var path: String { String(Router.pattern(of: route)) }
}

/// JSON Schema building blocks.
package enum Schema {
    /// `{"$ref": "#/components/schemas/NAME"}`.
    package static func ref(_ name: String) -> JSON {
        ["$ref": .string("#/components/schemas/\(name)")]
    }

    /// An object; closed (no other members) unless `open`.
    package static func object(_ properties: [String: JSON], required: [String] = [], open: Bool = false,
                       description: String? = nil) -> JSON {
        var schema: [String: JSON] = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { schema["required"] = .array(required.sorted().map { .string($0) }) }
        if !open { schema["additionalProperties"] = false }
        if let description { schema["description"] = .string(description) }
        return .object(schema)
    }

    /// An object whose members are all `values` (a map such as `{"BR": "10.00"}`).
    package static func map(of values: JSON, description: String? = nil) -> JSON {
        annotated(["type": "object", "additionalProperties": values], description, nil)
    }

    package static func array(of items: JSON, description: String? = nil) -> JSON {
        annotated(["type": "array", "items": items], description, nil)
    }

    /// A string; `pattern` the regular expression its handler reads, `minLength` its shortest.
    package static func string(_ description: String? = nil, example: String? = nil, pattern: String? = nil, minLength: Int? = nil) -> JSON {
        var schema: [String: JSON] = ["type": "string"]
        schema["pattern"] = pattern.map { .string($0) }
        schema["minLength"] = minLength.map { .number($0) }
        return annotated(schema, description, example.map { .string($0) })
    }

    /// A whole number (JSON Schema counts `100.0` as one), between `minimum` and `maximum` when given.
    package static func integer(_ description: String? = nil, example: Int? = nil, minimum: Int? = nil, maximum: Int? = nil) -> JSON {
        var schema: [String: JSON] = ["type": "integer"]
        schema["minimum"] = minimum.map { .number($0) }
        schema["maximum"] = maximum.map { .number($0) }
        return annotated(schema, description, example.map { .number($0) })
    }

    /// The members that make a value exactly one of `alternatives`; with none (no API served gives
    /// one), no member: JSON Schema refuses an empty `oneOf` (as `KeySpec.oneOf` for scenario files).
    static func oneOf(schemas alternatives: [JSON]) -> [String: JSON] {
        alternatives.isEmpty ? [:] : ["oneOf": .array(alternatives)]
    }

    /// The members that make a value one of `alternatives` or more (an update whose members two
    /// APIs share); none with no alternative, as `oneOf(schemas:)`.
    static func anyOf(schemas alternatives: [JSON]) -> [String: JSON] {
        alternatives.isEmpty ? [:] : ["anyOf": .array(alternatives)]
    }

    /// Exactly one of `alternatives` (each a closed object with its own required members).
    static func exactlyOne(_ alternatives: [JSON], description: String) -> JSON {
        ["oneOf": .array(alternatives), "description": .string(description)]
    }

    package static func boolean(_ description: String? = nil) -> JSON {
        annotated(["type": "boolean"], description, nil)
    }

    /// A string of one of `values`.
    package static func oneOf(_ values: [String], _ description: String? = nil) -> JSON {
        annotated(["type": "string", "enum": .array(values.map { .string($0) })], description, nil)
    }

    /// `type` (`"string"`, `"integer"`...) or `null`.
    package static func nullable(_ type: String, _ description: String? = nil, example: JSON? = nil) -> JSON {
        annotated(["type": [.string(type), "null"]], description, example)
    }

    /// A value that may be sent as either `types` (D24 clients send amounts and ids both ways).
    package static func either(_ types: [String], _ description: String? = nil, example: JSON? = nil) -> JSON {
        annotated(["type": .array(types.map { .string($0) })], description, example)
    }

    /// A UTC timestamp of the virtual clock, `2026-01-05T09:00:00Z`.
    package static func time(_ description: String? = nil) -> JSON {
        annotated(["type": "string", "format": "date-time"], description, "2026-01-05T09:00:00Z")
    }

    /// A decimal amount as text with two places, `"100.00"`.
    package static func amount(_ description: String? = nil) -> JSON {
        annotated(["type": "string", "pattern": #"^-?[0-9]+\.[0-9]{2}$"#], description, "100.00")
    }

    private static func annotated(_ schema: [String: JSON], _ description: String?, _ example: JSON?) -> JSON {
        var schema = schema
        if let description { schema["description"] = .string(description) }
        if let example { schema["examples"] = [example] }
        return .object(schema)
    }
}

/// Parameters, bodies, responses and operations.
package enum OpenAPI {
    package static func query(_ name: String, _ schema: JSON, _ description: String, required: Bool = false) -> JSON {
        ["name": .string(name), "in": "query", "required": .bool(required), "schema": schema, "description": .string(description)]
    }

    package static func path(_ name: String, _ schema: JSON, _ description: String) -> JSON {
        ["name": .string(name), "in": "path", "required": true, "schema": schema, "description": .string(description)]
    }

    /// A header parameter; `example` is what tools fill in to try the call.
    package static func header(_ name: String, _ description: String, example: String? = nil, schema: JSON = Schema.string(),
                               required: Bool = false) -> JSON {
        var parameter: [String: JSON] = ["name": .string(name), "in": "header", "required": .bool(required), "schema": schema,
                                         "description": .string(description)]
        parameter["example"] = example.map { .string($0) }
        return .object(parameter)
    }

    /// A JSON request body; `examples` are named request bodies.
    package static func body(_ schema: JSON, required: Bool = true, examples: [String: JSON] = [:],
                     mediaType: String = "application/json") -> JSON {
        var media: [String: JSON] = ["schema": schema]
        if !examples.isEmpty { media["examples"] = .object(examples.mapValues { ["value": $0] }) }
        return ["required": .bool(required), "content": [mediaType: .object(media)]]
    }

    /// A JSON response.
    package static func json(_ description: String, _ schema: JSON, example: JSON? = nil, links: [String: JSON] = [:]) -> JSON {
        var media: [String: JSON] = ["schema": schema]
        if let example { media["example"] = example }
        var response: [String: JSON] = ["description": .string(description), "content": ["application/json": .object(media)]]
        if !links.isEmpty { response["links"] = .object(links) }
        return .object(response)
    }

    /// An OpenAPI link: `operation` called with parameters taken from this response, by runtime
    /// expressions such as `$response.body#/cashout_id`.
    package static func link(to operation: String, _ parameters: [String: String]) -> JSON {
        ["operationId": .string(operation), "parameters": .object(parameters.mapValues { .string($0) })]
    }

    /// A response without a body.
    package static func empty(_ description: String) -> JSON {
        ["description": .string(description)]
    }

    /// An error body, `{"code":N,"message":"..."}`.
    static func failure(_ code: Int, _ message: String) -> JSON {
        ["code": .number(code), "message": .string(message)]
    }

    /// An error response of `schema` with each of `examples` as a named example (named by its code).
    package static func errors(_ description: String, schema: String = "Error", _ examples: [JSON]) -> JSON {
        var named: [String: JSON] = [:]
        for (index, example) in examples.enumerated() {
            let code = example["code"]?.numberText ?? "error"
            let name = named[code] == nil ? code : "\(code)-\(index + 1)"
            named[name] = ["summary": example["message"] ?? example["description"] ?? "", "value": example]
        }
        return ["description": .string(description),
                "content": ["application/json": ["schema": Schema.ref(schema), "examples": .object(named)]]]
    }

    /// The sandbox's own error for an HTTP status, `{"code":404,"message":"..."}`, one example per message.
    package static func error(_ status: Int, _ messages: String...) -> JSON {
        errors(messages.joined(separator: "; "), messages.map { failure(status, $0) })
    }

    /// An operation object. `security` names schemes of `components.securitySchemes`.
    static func operation(_ id: String, tag: String, summary: String, description: String,
                          parameters: [JSON] = [], body: JSON? = nil, security: [String] = [],
                          responses: [String: JSON]) -> JSON {
        operation(tag: tag, summary: summary, description: description, parameters: parameters, body: body, security: security,
                  responses: responses).merging(["operationId": .string(id)])
    }

    /// An operation object without its `operationId`: an ``Endpoint`` of an ``SandboxContract/APIOperation``
    /// gives it the operation's id.
    package static func operation(tag: String, summary: String, description: String,
                          parameters: [JSON] = [], body: JSON? = nil, security: [String] = [],
                          responses: [String: JSON]) -> JSON {
        var operation: [String: JSON] = [
            "tags": [.string(tag)], "summary": .string(summary),
            "description": .string(description), "responses": .object(responses),
        ]
        if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
        if let body { operation["requestBody"] = body }
        if !security.isEmpty { operation["security"] = .array(security.map { [$0: []] }) }
        return .object(operation)
    }

    /// The `paths` object: operations grouped by path.
    static func paths(_ endpoints: [OpenAPIEndpoint]) -> JSON {
        var paths: [String: [String: JSON]] = [:]
        for endpoint in endpoints {
            paths[endpoint.path, default: [:]][endpoint.method] = endpoint.operation
        }
        return .object(paths.mapValues { .object($0) })
    }
}

extension JSON {
    /// This object with `members` added (replacing same-named ones); other values unchanged.
    package func merging(_ members: [String: JSON]) -> JSON {
        guard case .object(let object) = self else { return self }
        return .object(object.merging(members) { $1 })
    }
}
