import SandboxJSON

// JSON Schemas (draft 2020-12, the dialect of OpenAPI 3.1) of the proto3 JSON that
// ProtoMessage+JSON.swift writes and reads, derived from the schemas declared in Swift, so the
// documents describe messages from the same declarations the server decodes them with:
// - a message is an object whose properties are its fields by lowerCamelCase JSON name (what
//   answers use), each described by its .proto name and number, and nothing else: a member of no
//   field is refused (`additionalProperties: false`; requests may also name a field as the .proto
//   does, which the schema leaves to the description); a message or enum field is a `$ref`;
// - 64-bit integers are decimal strings, 32-bit ones integers with their range, bytes base64
//   strings, float and double numbers or "NaN", "Infinity", "-Infinity";
// - an enum is a string of its value names (requests may give the number instead);
// - a real oneof is named in its message's description and each member's; a message made of
//   one oneof alone takes at most one member (`maxProperties: 1`).

extension ProtoRegistry {
    /// The JSON Schemas of `roots` (message full names) and of every message and enum their
    /// fields reach, keyed by full name; references are `refPrefix` and the full name.
    ///
    /// ```swift
    /// let schemas = registry.jsonSchemas(reachableFrom: ["types.PayoutServiceGetRequest"],
    ///                                    refPrefix: "#/components/schemas/")
    /// schemas["types.PayoutServiceGetRequest"]?["properties"]?["merchantPayoutId"]
    /// // {"type": "string", "description": "`merchant_payout_id` = 1, optional"}
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

    private func jsonSchema(of message: MessageSchema, refPrefix: String) -> JSON {
        var properties: [String: JSON] = [:]
        for field in message.fields {
            let value = Self.jsonSchema(of: field.type, refPrefix: refPrefix)
            var property = field.label == .repeated ? ["type": "array", "items": .object(value)] : value
            property["description"] = .string(Self.describe(field))
            properties[field.jsonName] = .object(property)
        }
        var lines = ["`\(message.fullName)`."]
        for oneof in message.oneofs {
            let members = message.fields.filter { $0.oneof == oneof }.map { "`\($0.jsonName)`" }
            lines.append("oneof `\(oneof)`: at most one of \(members.joined(separator: ", ")).")
        }
        var schema: [String: JSON] = ["type": "object", "properties": .object(properties), "additionalProperties": false,
                                      "description": .string(lines.joined(separator: " "))]
        if message.oneofs.count == 1, message.fields.allSatisfy({ $0.oneof != nil }) { schema["maxProperties"] = 1 }
        return .object(schema)
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
            if let range = type.signedRange {
                if type.isJSON64 { return ["type": "string", "pattern": "^-?[0-9]+$"] }
                return ["type": "integer", "minimum": .number(String(range.lowerBound)), "maximum": .number(String(range.upperBound))]
            }
            if type.isJSON64 { return ["type": "string", "pattern": "^[0-9]+$"] }
            return ["type": "integer", "minimum": 0, "maximum": .number(String(type.unsignedMax ?? 0))]
        }
    }

    private static func jsonSchema(of schema: EnumSchema) -> JSON {
        ["type": "string", "enum": .array(schema.values.map { .string($0.name) }),
         "description": .string("`\(schema.fullName)`, by value name (a request may give the value's number instead).")]
    }
}
