/// One field of a message: number, name, type, label and oneof.
///
/// ```swift
/// FieldSchema(1, "merchant_payout_id", .string, .optional)
/// FieldSchema(4, "card", .message("types.CardPayout"), oneof: "payout_method_data")
/// FieldSchema(5, "tags", .string, .repeated)
/// ```
///
/// Map fields are not supported (the sandbox's protos have none); a `map<K, V>` would be a
/// repeated nested entry message.
package struct FieldSchema: Sendable {
    /// How many values a field holds, and whether it tracks presence.
    package enum Label: Sendable, Equatable {
        /// proto3's plain singular field: absent when it holds the zero value.
        case singular
        /// proto3 `optional`: has presence, so a zero value is kept and sent.
        case optional
        /// `repeated`: packed on the wire when the type allows it.
        case repeated
    }

    /// The field number.
    package let number: Int
    /// The field's name in the `.proto` file (`snake_case`).
    package let name: String
    /// The value type.
    package let type: ProtoType
    /// Singular, optional or repeated.
    let label: Label
    /// The oneof this field belongs to, if any.
    let oneof: String?
    /// The proto3 JSON name: `name` in lowerCamelCase, as protoc derives it.
    let jsonName: String

    /// Declares a field.
    package init(_ number: Int, _ name: String, _ type: ProtoType, _ label: Label = .singular, oneof: String? = nil) {
        precondition((1 ... ProtobufReader.maxFieldNumber).contains(number) && !(19000 ... 19999).contains(number),
                     "field \(name): number \(number) is not allowed")
        precondition(oneof == nil || label == .singular, "field \(name): oneof members are singular")
        self.number = number
        self.name = name
        self.type = type
        self.label = label
        self.oneof = oneof
        jsonName = Self.jsonName(name)
    }

    /// Whether the field tracks presence: `optional`, oneof members and singular messages.
    var hasPresence: Bool {
        switch label {
        case .optional: return true
        case .repeated: return false
        case .singular:
            if oneof != nil { return true }
            if case .message = type { return true }
            return false
        }
    }

    /// protoc's ToJsonName: underscores dropped, the letter after each one upper-cased.
    package static func jsonName(_ name: String) -> String {
        var result = ""
        var upperNext = false
        for character in name {
            if character == "_" {
                upperNext = true
            } else {
                result += upperNext ? character.uppercased() : String(character)
                upperNext = false
            }
        }
        return result
    }
}
