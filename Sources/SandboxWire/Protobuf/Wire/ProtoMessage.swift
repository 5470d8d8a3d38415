/// A message decoded against its ``MessageSchema``: values by field number, plus the bytes of
/// fields the schema does not know, kept and sent again when the message is encoded.
///
/// Reads give proto3 defaults for unset fields; ``has(_:)`` tells presence (`optional`,
/// oneof members and messages). Setting a oneof member clears the others; setting a field
/// without presence to its zero value unsets it, as the wire would.
///
/// ```swift
/// var request = try registry.decode("types.PayoutServiceGetRequest", from: bytes)
/// request.string("connector_payout_id")        // "" when unset
/// request.has("merchant_payout_id")            // presence of an optional field
/// request.message("amount")?.int("minor_amount")
/// request.oneofCase("payout_method")           // "card", or nil
/// request["status"] = "SUCCESS"                // by name or number
/// ```
///
/// Names are the `.proto` names or their lowerCamelCase JSON names. An unknown name, or a value
/// of the wrong kind, is a programming error and traps with both named.
package struct ProtoMessage: Sendable, Equatable {
    /// The message's type.
    package let schema: MessageSchema
    /// Where the types of nested fields resolve.
    package let registry: ProtoRegistry
    /// The values set, by field number.
    var values: [Int: ProtoValue] = [:]
    /// Wire bytes (tags and values) of fields the schema does not define, re-emitted on encode.
    var unknownFields: [UInt8] = []

    /// An empty message of type `schema`.
    package init(_ schema: MessageSchema, registry: ProtoRegistry) {
        self.schema = schema
        self.registry = registry
    }

    /// Equal when of the same type with the same values and unknown bytes.
    package static func == (lhs: ProtoMessage, rhs: ProtoMessage) -> Bool {
        lhs.schema.fullName == rhs.schema.fullName && lhs.values == rhs.values && lhs.unknownFields == rhs.unknownFields
    }

    private func field(_ name: String) -> FieldSchema {
        guard let field = schema.field(named: name) else { preconditionFailure("\(schema.fullName) has no field \(name)") }
        return field
    }

    /// The value of field `name`, nil when unset; setting nil clears it.
    package subscript(name: String) -> ProtoValue? {
        get { values[field(name).number] }
        set {
            let field = field(name)
            guard let newValue else { return clear(field) }
            guard let value = normalized(newValue, for: field) else {
                preconditionFailure("\(schema.fullName).\(field.name) (\(field.type.protoName)) cannot hold \(newValue)")
            }
            set(value, for: field)
        }
    }

    /// Whether field `name` is set (for fields without presence: holds a non-zero value).
    package func has(_ name: String) -> Bool { values[field(name).number] != nil }

    /// A string field's value, "" when unset.
    package func string(_ name: String) -> String {
        if case .string(let value)? = self[name] { return value }
        return ""
    }

    /// A signed integer field's value, 0 when unset.
    package func int(_ name: String) -> Int64 {
        if case .int(let value)? = self[name] { return value }
        return 0
    }

    /// An unsigned integer field's value, 0 when unset.
    func uint(_ name: String) -> UInt64 {
        if case .uint(let value)? = self[name] { return value }
        return 0
    }

    /// A bool field's value, false when unset.
    func bool(_ name: String) -> Bool {
        if case .bool(let value)? = self[name] { return value }
        return false
    }

    /// A bytes field's value, empty when unset.
    package func bytes(_ name: String) -> [UInt8] {
        if case .bytes(let value)? = self[name] { return value }
        return []
    }

    /// An enum field's number, 0 when unset.
    func enumNumber(_ name: String) -> Int32 {
        if case .enumeration(let value)? = self[name] { return value }
        return 0
    }

    /// An enum field's value name (nil for a number the enum does not define).
    package func enumName(_ name: String) -> String? {
        guard case .enumeration(let type) = field(name).type else { return nil }
        return registry.enumSchema(type)?.name(of: enumNumber(name))
    }

    /// A message field's value, nil when unset.
    package func message(_ name: String) -> ProtoMessage? {
        if case .message(let value)? = self[name] { return value }
        return nil
    }

    /// A repeated field's values, empty when unset.
    func list(_ name: String) -> [ProtoValue] {
        if case .list(let values)? = self[name] { return values }
        return []
    }

    /// A repeated message field's messages.
    func messages(_ name: String) -> [ProtoMessage] {
        list(name).compactMap { if case .message(let value) = $0 { value } else { nil } }
    }

    /// A repeated string field's strings.
    func strings(_ name: String) -> [String] {
        list(name).compactMap { if case .string(let value) = $0 { value } else { nil } }
    }

    /// The name of the member of oneof `oneof` that is set, or nil.
    package func oneofCase(_ oneof: String) -> String? {
        schema.fields.first { $0.oneof == oneof && values[$0.number] != nil }?.name
    }

    /// Sets an already-normalized value: clears the oneof's other members, and unsets a field
    /// without presence that gets its zero value.
    mutating func set(_ value: ProtoValue, for field: FieldSchema) {
        if let oneof = field.oneof {
            for other in schema.fields where other.oneof == oneof && other.number != field.number { values[other.number] = nil }
        }
        values[field.number] = !field.hasPresence && value.isZero ? nil : value
    }

    private mutating func clear(_ field: FieldSchema) {
        values[field.number] = nil
    }
}
