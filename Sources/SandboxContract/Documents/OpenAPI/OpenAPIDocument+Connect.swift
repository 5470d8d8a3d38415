package import SandboxWire
package import SandboxSupport

// A gRPC service's unary methods as Connect's unary JSON serves them (SandboxWire's
// GRPCServer+Connect.swift), for the OpenAPI document: `POST /<service>/<Method>` with the request
// message as proto3 JSON (required: without `Content-Type: application/json` a call is taken for
// gRPC and answered 415; `{}` is the empty message; the binary `application/proto` is not described),
// answered 200 with the response message as proto3 JSON,
// or with a Connect error `{"code","message"}` under its code's HTTP status. The message and enum
// schemas are made from the service's own declarations (ProtoRegistry+JSONSchema.swift); what a
// person must say about a method (summary, examples, the statuses it ends with) comes with it.

/// What the OpenAPI document says of one unary method served as Connect JSON, beside what its
/// declaration gives.
package struct ConnectMethod: Sendable {
    /// The method's name in its service (`Create`).
    package var name: String
    var operationID: String
    package var summary: String
    package var description: String
    /// Named example requests, as proto3 JSON.
    var examples: [String: JSON]
    /// What a fresh sandbox answers the first example, when that is worth showing.
    var answer: JSON?
    /// Headers of its 200 answer beyond every answer's.
    package var headers: [String: JSON]
    /// The statuses other than OK it can end with, each shown as an example of its HTTP status.
    package var errors: [GRPCStatus]
    /// OpenAPI links from its 200 answer to the calls that take it further (`OpenAPI.connectLink`).
    var links: [String: JSON]
    /// The request's fields its handler refuses to go without, by .proto name (`payout_method_data`), or
    /// path (`amount.currency`): each must be given by either name, not null and not its zero value
    /// (`ProtoRegistry.required(_:in:)`), the schema's `allOf`.
    package var required: [String]
    /// Groups of fields of which the handler needs one (`connector_payout_id` or `merchant_payout_id`).
    var requiredOneOf: [[String]]

    /// The method of `operation` (a gRPC method's), documented under its id.
    package init(_ operation: APIOperation, summary: String, description: String, examples: [String: JSON],
                 answer: JSON? = nil, headers: [String: JSON] = [:], errors: [GRPCStatus], links: [String: JSON] = [:],
                 required: [String] = [], requiredOneOf: [[String]] = []) {
        guard let name = operation.grpcMethod else { preconditionFailure("\(operation) is not a gRPC method") }
        self.init(name, operationID: operation.id, summary: summary, description: description, examples: examples, answer: answer,
                  headers: headers, errors: errors, links: links, required: required, requiredOneOf: requiredOneOf)
    }

    package init(_ name: String, operationID: String, summary: String, description: String, examples: [String: JSON],
                 answer: JSON? = nil, headers: [String: JSON] = [:], errors: [GRPCStatus], links: [String: JSON] = [:],
                 required: [String] = [], requiredOneOf: [[String]] = []) {
        self.name = name
        self.operationID = operationID
        self.summary = summary
        self.description = description
        self.examples = examples
        self.answer = answer
        self.headers = headers
        self.errors = errors
        self.links = links
        self.required = required
        self.requiredOneOf = requiredOneOf
    }
}

extension OpenAPI {
    /// The component name of a Connect error body.
    static let connectError = "ConnectError"

    /// The operations of `methods` of `service`, with `parameters` (its metadata, as headers) and
    /// `headers` (those of every answer from the service), and the schemas they reference: every
    /// message and enum their requests and responses reach (by full name) and `ConnectError`.
    package static func connect(_ service: ServiceSchema, registry: ProtoRegistry, tag: String, parameters: [JSON],
                                headers: [String: JSON], methods: [ConnectMethod]) -> (endpoints: [OpenAPIEndpoint], schemas: [String: JSON]) {
        let declared = methods.map { documented -> MethodSchema in
            guard let method = service.method(documented.name), method.isUnary else {
                preconditionFailure("\(service.fullName) has no unary method \(documented.name)")
            }
            return method
        }
        let endpoints = zip(methods, declared).map { documented, method in
            var responses = ["200": connectAnswer(method.output, documented, headers: headers.merging(documented.headers) { $1 })]
            let errors = documented.errors + [undecodable(method.input, registry: registry)]
            for (status, group) in Dictionary(grouping: errors, by: \.code.connectHTTPStatus) {
                responses[String(status)] = connectErrors(group, headers: headers)
            }
            responses["415"] = [
                "description": .string("Without `Content-Type: application/json` (or `application/proto`) the call is taken for gRPC, "
                                           + "whose content type it lacks"),
                "content": ["text/plain": ["schema": Schema.string()]],
            ]
            return OpenAPIEndpoint(route: APIOperation.grpcRoute(service: service.fullName, method: method.name), operation: operation(
                documented.operationID, tag: tag, summary: documented.summary, description: documented.description,
                parameters: parameters, body: body(Schema.ref(method.input), examples: documented.examples),
                responses: responses))
        }
        var schemas = registry.jsonSchemas(reachableFrom: declared.flatMap { [$0.input, $0.output] }, refPrefix: "#/components/schemas/")
        for (documented, method) in zip(methods, declared) {
            guard let message = registry.messageSchema(method.input) else { continue }
            let conditions = documented.required.map { requirement($0, in: message, registry: registry) }
                + documented.requiredOneOf.map { ["anyOf": .array($0.map { requirement($0, in: message, registry: registry) })] }
            if !conditions.isEmpty { schemas[method.input] = schemas[method.input]?.merging(["allOf": .array(conditions)]) }
        }
        schemas[connectError] = Schema.object([
            "code": Schema.oneOf(GRPCStatus.Code.allCases.filter { $0 != .ok }.map(\.connectName),
                                 "The gRPC status code in Connect's words; the HTTP status follows from it"),
            "message": Schema.string("For the client's developer"),
        ], required: ["code"], description: "A Connect error")
        return (endpoints, schemas)
    }

    /// What a `message` object holds when its field at `path` (.proto names, `amount.currency`) is given.
    private static func requirement(_ path: String, in message: MessageSchema, registry: ProtoRegistry) -> JSON {
        let name = String(path.prefix { $0 != "." })
        guard let field = message.field(named: name), let condition = registry.required(name, in: message) else {
            preconditionFailure("\(message.fullName) has no field \(name)")
        }
        guard path.count > name.count, let type = field.type.typeName, let inner = registry.messageSchema(type) else { return condition }
        let rest = requirement(String(path.dropFirst(name.count + 1)), in: inner, registry: registry)
        return ["allOf": [condition, ["properties": .object(Dictionary(uniqueKeysWithValues: ProtoRegistry.names(field).map { ($0, rest) }))]]]
    }

    /// The 200 answer: the response message as proto3 JSON.
    private static func connectAnswer(_ output: String, _ method: ConnectMethod, headers: [String: JSON]) -> JSON {
        var media: [String: JSON] = ["schema": Schema.ref(output)]
        if let answer = method.answer { media["example"] = answer }
        var response: [String: JSON] = ["description": "OK: the response message", "content": ["application/json": .object(media)]]
        if !headers.isEmpty { response["headers"] = .object(headers) }
        if !method.links.isEmpty { response["links"] = .object(method.links) }
        return .object(response)
    }

    /// An OpenAPI link to the Connect call `operation` whose body is `body`, where strings such as
    /// `$response.body#/connectorPayoutId` take values of this answer.
    package static func connectLink(to operation: String, body: JSON) -> JSON {
        ["operationId": .string(operation), "requestBody": body]
    }

    /// Errors of one HTTP status: `ConnectError`, each status a named example.
    private static func connectErrors(_ statuses: [GRPCStatus], headers: [String: JSON]) -> JSON {
        var codes: [String] = []
        var examples: [String: JSON] = [:]
        for status in statuses {
            if !codes.contains(status.code.connectName) { codes.append(status.code.connectName) }
            examples[status.message] = ["summary": .string(status.message),
                                        "value": ["code": .string(status.code.connectName), "message": .string(status.message)]]
        }
        var response: [String: JSON] = [
            "description": .string("Connect error " + codes.map { "`\($0)`" }.joined(separator: " or ")),
            "content": ["application/json": ["schema": Schema.ref(connectError), "examples": .object(examples)]],
        ]
        if !headers.isEmpty { response["headers"] = .object(headers) }
        return .object(response)
    }

    /// What a request that is not a `input` message gets, shown by one with an unknown member.
    private static func undecodable(_ input: String, registry: ProtoRegistry) -> GRPCStatus {
        do {
            _ = try registry.decode(input, json: ["notAField": true])
            preconditionFailure("\(input) has a field notAField")
        } catch {
            return GRPCServer.undecodable(error)
        }
    }
}
