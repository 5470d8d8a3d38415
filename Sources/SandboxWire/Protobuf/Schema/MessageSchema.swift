/// A message type, declared once in Swift: binary and JSON coding and the descriptor that
/// server reflection serves all derive from it.
///
/// ```swift
/// let getRequest = MessageSchema("types.PayoutServiceGetRequest", [
///     FieldSchema(1, "merchant_payout_id", .string, .optional),
///     FieldSchema(2, "connector_payout_id", .string),
///     FieldSchema(3, "status", .enumeration("types.PayoutStatus")),
/// ])
/// ```
///
/// Nested types are declared inside their parent, with full names that extend the parent's
/// (`"types.PayoutEnums"` holds `"types.PayoutEnums.PayoutPriority"`).
package struct MessageSchema: Sendable {
    /// The full name, e.g. `types.PayoutServiceGetRequest`.
    package let fullName: String
    /// The fields in declaration order.
    package let fields: [FieldSchema]
    /// Messages declared inside this one.
    let messages: [MessageSchema]
    /// Enums declared inside this one.
    let enums: [EnumSchema]
    private let indexByNumber: [Int: Int]
    private let indexByName: [String: Int]

    /// Declares a message. Field numbers and names must be unique.
    package init(_ fullName: String, _ fields: [FieldSchema], messages: [MessageSchema] = [], enums: [EnumSchema] = []) {
        self.fullName = fullName
        self.fields = fields
        self.messages = messages
        self.enums = enums
        var byNumber: [Int: Int] = [:]
        var byName: [String: Int] = [:]
        for (index, field) in fields.enumerated() {
            precondition(byNumber.updateValue(index, forKey: field.number) == nil, "\(fullName): field number \(field.number) repeats")
            precondition(byName.updateValue(index, forKey: field.name) == nil, "\(fullName): field \(field.name) repeats")
        }
        for (index, field) in fields.enumerated() where byName[field.jsonName] == nil { byName[field.jsonName] = index }
        indexByNumber = byNumber
        indexByName = byName
        for nested in messages.map(\.fullName) + enums.map(\.fullName) {
            precondition(nested.hasPrefix(fullName + ".") && !nested.dropFirst(fullName.count + 1).contains("."),
                         "\(nested) is not a name directly inside \(fullName)")
        }
    }

    /// The last component of the full name.
    package var name: String { String(fullName.split(separator: ".").last ?? "") }

    /// The field numbered `number`.
    package func field(number: Int) -> FieldSchema? {
        indexByNumber[number].map { fields[$0] }
    }

    /// The field named `name`: its `.proto` name, or its lowerCamelCase JSON name.
    package func field(named name: String) -> FieldSchema? {
        indexByName[name].map { fields[$0] }
    }

    /// The real (declared) oneofs, in the order their first member appears.
    var oneofs: [String] {
        var names: [String] = []
        for case let name? in fields.map(\.oneof) where !names.contains(name) { names.append(name) }
        return names
    }

    /// This message and every message nested in it, depth first.
    var allMessages: [MessageSchema] {
        [self] + messages.flatMap(\.allMessages)
    }

    /// The enums nested in this message and in its nested messages.
    var allEnums: [EnumSchema] {
        enums + messages.flatMap(\.allEnums)
    }
}
