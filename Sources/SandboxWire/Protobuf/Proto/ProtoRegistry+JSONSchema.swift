package import SandboxSupport

// JSON Schemas (draft 2020-12, the dialect of OpenAPI 3.1) of the proto3 JSON that
// ProtoMessage+JSON.swift reads (and writes, a narrower form), derived from the schemas declared
// in Swift, so the documents describe messages from the same declarations the server decodes them with:
// - a message is an object whose properties are its fields by lowerCamelCase JSON name (what
//   answers use) and by .proto name (which requests may use instead, not both, as the decoder
//   refuses "field given twice": the description says it, as it says a oneof's one member; a `not`
//   per pair of names cost schemathesis's coverage phase minutes a method), each described by its .proto
//   name and number, and nothing else (`additionalProperties: false`);
//   any field may be `null`, which reads as "not set"; a message or enum field is a `$ref`;
// - integers are JSON integers in their type's range or decimal strings (64-bit ones are written as
//   strings, 32-bit ones as numbers), bytes base64 strings, float and double numbers or "NaN",
//   "Infinity", "-Infinity";
// - an enum is one of its value names, or a 32-bit number;
// - a real oneof takes at most one member that is not null, as its message's description says, and
//   is named in each member's.
// `required(_:in:)` says that a field must be given, not null and not its zero value (what a
// handler that refuses it as missing reads), for a method's request.

extension ProtoRegistry {
    /// The JSON Schemas of `roots` (message full names) and of every message and enum their
    /// fields reach, keyed by full name; references are `refPrefix` and the full name.
    ///
    /// ```swift
    /// let schemas = registry.jsonSchemas(reachableFrom: ["types.PayoutServiceGetRequest"],
    ///                                    refPrefix: "#/components/schemas/")
    /// schemas["types.PayoutServiceGetRequest"]?["properties"]?["merchantPayoutId"]
    /// // {"type": ["string", "null"], "description": "`merchant_payout_id` = 1, optional"}
    /// ```
    package func jsonSchemas(reachableFrom roots: [String], refPrefix: String) -> [String: JSON] {
        var schemas: [String: JSON] = [:]
        var pending = roots
        while let name = pending.popLast() {
            guard schemas[name] == nil else { continue }
            if let schema = messageSchema(name) {
                schemas[name] = jsonSchema(of: schema, refPrefix: refPrefix)
                pending += schema.fields.compactMap(\.type.typeName)
            } else if let schema = enumSchema(name) {
                schemas[name] = Self.jsonSchema(of: schema)
            }
        }
        return schemas
    }

    /// The names a field may be given by: its JSON name, then its .proto name when that differs.
    package static func names(_ field: FieldSchema) -> [String] {
        field.jsonName == field.name ? [field.name] : [field.jsonName, field.name]
    }

    /// What an object of `message` must hold for its field `name` (.proto name) to count as given: the
    /// field by either name, not null, not its zero value (an empty string, a zero number, an enum's
    /// first value, a message of a oneof alone without a member). Nil when `message` has no such field.
    package func required(_ name: String, in message: MessageSchema) -> JSON? {
        guard let field = message.field(named: name) else { return nil }
        var value: [String: JSON] = ["not": ["type": "null"]]
        switch field.type {
        case .string: value["minLength"] = 1
        case .enumeration(let type):
            let zero = enumSchema(type)?.name(of: 0).map { JSON.string($0) }
            value["not"] = ["enum": .array([.null, .number("0")] + (zero.map { [$0] } ?? []))]
        case .message(let type):
            if let member = messageSchema(type), member.oneofs.count == 1, member.fields.allSatisfy({ $0.oneof != nil }) {
                value["anyOf"] = .array(member.fields.flatMap(Self.names).map { name in
                    ["required": [.string(name)], "properties": [name: ["not": ["type": "null"]]]]
                })
            }
        case .bool: value["const"] = true
        default:
            if field.type.signedRange != nil || field.type.unsignedMax != nil {
                value["anyOf"] = [["type": "integer", "minimum": 1], ["type": "string", "pattern": "^0*[1-9][0-9]*$"]]
            }
        }
        return ["anyOf": .array(Self.names(field).map { name in ["required": [.string(name)], "properties": [name: .object(value)]] })]
    }

    private func jsonSchema(of message: MessageSchema, refPrefix: String) -> JSON {
        var properties: [String: JSON] = [:]
        for field in message.fields {
            let value = Self.jsonSchema(of: field.type, refPrefix: refPrefix)
            let given: JSON = field.label == .repeated ? ["type": "array", "items": .object(value)] : .object(value)
            let names = Self.names(field)
            for name in names {
                properties[name] = ["anyOf": [given, ["type": "null"]], "description": .string(Self.describe(field))]
            }
        }
        var lines = ["`\(message.fullName)`."]
        for oneof in message.oneofs {
            let members = message.fields.filter { $0.oneof == oneof }.map { "`\($0.jsonName)`" }
            lines.append("oneof `\(oneof)`: at most one of \(members.joined(separator: ", ")) not null.")
        }
        // Said in words, not as a `not` over each pair of names: schemathesis's coverage phase enumerates a `not`
        // against every combination it generates, which took it minutes a method (Contributing guide, "The OpenAPI check").
        if message.fields.contains(where: { $0.jsonName != $0.name }) {
            lines.append("A field is named by its JSON name or its .proto name, not both.")
        }
        return ["type": "object", "properties": .object(properties), "additionalProperties": false,
                "description": .string(lines.joined(separator: " "))]
    }

    /// "`merchant_payout_id` = 1, optional", "`card` = 1, oneof `payout_method_data`".
    private static func describe(_ field: FieldSchema) -> String {
        var text = "`\(field.name)` = \(field.number)"
        if let oneof = field.oneof { text += ", oneof `\(oneof)`" }
        switch field.label {
        case .optional: text += ", optional"
        case .repeated: text += ", repeated"
        case .singular: break
        }
        if field.type.isJSON64 { text += "; \(field.type.protoName), written as a decimal string" }
        return text
    }

    private static func jsonSchema(of type: ProtoType, refPrefix: String) -> [String: JSON] {
        switch type {
        case .message(let name), .enumeration(let name): return ["$ref": .string(refPrefix + name)]
        case .string: return ["type": "string"]
        case .bool: return ["type": "boolean"]
        case .bytes: return ["type": "string", "contentEncoding": "base64"]
        case .float, .double: return ["anyOf": [["type": "number"], ["enum": ["NaN", "Infinity", "-Infinity"]]]]
        default:
            // As a number in range, or as a decimal string (digits the range surely holds: a longer one may be refused).
            if let range = type.signedRange {
                let digits = type.isJSON64 ? 18 : 9
                return ["anyOf": [["type": "integer", "minimum": .number(String(range.lowerBound)), "maximum": .number(String(range.upperBound))],
                                  ["type": "string", "pattern": .string("^-?[0-9]{1,\(digits)}$")]]]
            }
            let digits = type.isJSON64 ? 19 : 9
            return ["anyOf": [["type": "integer", "minimum": 0, "maximum": .number(String(type.unsignedMax ?? 0))],
                              ["type": "string", "pattern": .string("^[0-9]{1,\(digits)}$")]]]
        }
    }

    private static func jsonSchema(of schema: EnumSchema) -> JSON {
        ["anyOf": [["type": "string", "enum": .array(schema.values.map { .string($0.name) })],
                   ["type": "integer", "minimum": .number(String(Int32.min)), "maximum": .number(String(Int32.max))]],
         "description": .string("`\(schema.fullName)`, by value name, or by number.")]
    }
}
