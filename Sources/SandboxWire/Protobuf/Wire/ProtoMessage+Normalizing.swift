extension ProtoMessage {
    /// `value` in the kind `field` stores, or nil when it does not fit: integers of either
    /// sign converted within the type's range, enum names resolved, lists element by element.
    func normalized(_ value: ProtoValue, for field: FieldSchema) -> ProtoValue? {
        if field.label == .repeated {
            guard case .list(let elements) = value else { return nil }
            var result: [ProtoValue] = []
            for element in elements {
                guard let element = normalizedElement(element, type: field.type) else { return nil }
                result.append(element)
            }
            return .list(result)
        }
        return normalizedElement(value, type: field.type)
    }

    private func normalizedElement(_ value: ProtoValue, type: ProtoType) -> ProtoValue? {
        switch (type, value) {
        case (.bool, .bool), (.string, .string), (.bytes, .bytes), (.float, .float), (.double, .double):
            return value
        case (.enumeration, .enumeration):
            return value
        case (.enumeration(let name), .string(let valueName)):
            return registry.enumSchema(name)?.number(of: valueName).map { .enumeration($0) }
        case (.enumeration, .int(let number)):
            return Int32(exactly: number).map { .enumeration($0) }
        case (.message(let name), .message(let message)):
            return message.schema.fullName == name ? value : nil
        case (_, .int(let number)):
            if let range = type.signedRange { return range.contains(number) ? value : nil }
            if let max = type.unsignedMax, number >= 0, UInt64(number) <= max { return .uint(UInt64(number)) }
            return nil
        case (_, .uint(let number)):
            if let max = type.unsignedMax { return number <= max ? value : nil }
            if let range = type.signedRange, number <= UInt64(range.upperBound) { return .int(Int64(number)) }
            return nil
        default:
            return nil
        }
    }
}
