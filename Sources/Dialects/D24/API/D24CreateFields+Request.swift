import SandboxBank
import SandboxSupport

extension D24CreateFields {
    /// The create request's fields as text, checked for JSON type in the documented field order:
    /// the first field that is not a string (nor a number, for `amount` and `bank_code`) is refused with 300.
    ///
    /// One pass over the body's members, each key looked up once, rather than a lookup in the
    /// body per field: a load scenario sends a hundred thousand of these.
    init(_ request: D24SignedRequest) throws(D24Error) {
        self.init()
        var misTyped: [D24Field] = []
        for member in request.body.members {  // in order: a repeated key's last value counts
            guard let field = D24Field(jsonKey: member.key) else { continue }
            do {
                self[field] = try D24SignedRequest.text(member.value, numbers: field.takesNumbers,
                                                        refused: .invalidParam(field.messageName, field.label))
                if misTyped.contains(field) { misTyped.removeAll { $0 == field } }
            } catch {
                misTyped.append(field)
            }
        }
        if let first = misTyped.min() { throw .invalidParam(first.messageName, first.label) }
    }

    /// The fields that were sent, by wire name, in the documented order.
    var wireFields: Fields {
        Fields(names: D24Field.wireNames) { self[D24Field(rawValue: $0)!] }
    }
}

extension D24Field {
    /// Its wire name as a `Fields.Name`: a create's fields are named without looking each name up.
    var wireName: Fields.Name { Self.wireNames[rawValue] }

    /// Every field's wire name, in the documented order (`allCases`'s).
    static let wireNames = allCases.map { Fields.Name($0.jsonKey) }
}
