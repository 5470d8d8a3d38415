package import SandboxSupport

// The proto3 JSON mapping: https://protobuf.dev/programming-guides/json/
// Written: lowerCamelCase names, 64-bit integers as strings, enums by name (a number the enum does
// not define as a number), bytes as padded standard base64, float and double as numbers (NaN and
// the infinities as the strings "NaN", "Infinity", "-Infinity"), fields without presence at their
// zero value left out. Read: proto names or lowerCamelCase; integers as numbers or strings; enums
// by name or number; bytes in either base64 alphabet, padded or not; null for "not set". Not
// supported: the well-known types' special forms (Timestamp, Duration, Any, wrappers, Struct) and
// integers written with a fraction or exponent ("1.0", "1e3").

extension ProtoMessage {
    /// The message as proto3 JSON.
    package func json() -> JSON {
        var members: [String: JSON] = [:]
        for (number, value) in values {
            guard let field = schema.field(number: number) else { continue }
            if case .list(let elements) = value {
                members[field.jsonName] = .array(elements.map { json($0, type: field.type) })
            } else {
                members[field.jsonName] = json(value, type: field.type)
            }
        }
        return .object(members)
    }

    private func json(_ value: ProtoValue, type: ProtoType) -> JSON {
        switch value {
        case .int(let number): type.isJSON64 ? .string(String(number)) : .number(String(number))
        case .uint(let number): type.isJSON64 ? .string(String(number)) : .number(String(number))
        case .bool(let flag): .bool(flag)
        case .string(let text): .string(text)
        case .bytes(let bytes): .string(Base64.encode(bytes))
        case .float(let bits): Self.json(floating: Double(Float(bitPattern: bits)), text: Float(bitPattern: bits).description)
        case .double(let bits): Self.json(floating: Double(bitPattern: bits), text: Double(bitPattern: bits).description)
        case .enumeration(let number):
            if case .enumeration(let name) = type, let valueName = registry.enumSchema(name)?.name(of: number) {
                .string(valueName)
            } else {
                .number(String(number))
            }
        case .message(let message): message.json()
        case .list: .null  // lists do not nest
        }
    }

    private static func json(floating value: Double, text: String) -> JSON {
        if value.isNaN { return .string("NaN") }
        if value.isInfinite { return .string(value < 0 ? "-Infinity" : "Infinity") }
        return .number(text)
    }

    /// Reads proto3 JSON (an object) into a new message of this one's type; errors name the
    /// field path.
    init(json: JSON, schema: MessageSchema, registry: ProtoRegistry, path: String = "") throws(ProtobufError) {
        self.init(schema, registry: registry)
        guard case .object(let members) = json else { throw .invalidJSON(path: path, reason: "expected an object") }
        var seen: [Int: String] = [:]
        for key in members.keys.sorted() {
            guard let member = members[key] else { continue }
            let fieldPath = path.isEmpty ? key : "\(path).\(key)"
            guard let field = schema.field(named: key) else { throw .invalidJSON(path: fieldPath, reason: "unknown field") }
            if let other = seen.updateValue(key, forKey: field.number) {
                throw .invalidJSON(path: fieldPath, reason: "field given twice (also as \(other))")
            }
            if member.isNull { continue }
            if let oneof = field.oneof, let other = oneofCase(oneof) {
                throw .invalidJSON(path: fieldPath, reason: "oneof \(oneof) already has \(other)")
            }
            if field.label == .repeated {
                guard case .array(let elements) = member else { throw .invalidJSON(path: fieldPath, reason: "expected an array") }
                var list: [ProtoValue] = []
                for (index, element) in elements.enumerated() {
                    list.append(try value(element, type: field.type, path: "\(fieldPath)[\(index)]"))
                }
                set(.list(list), for: field)
            } else {
                set(try value(member, type: field.type, path: fieldPath), for: field)
            }
        }
    }

    private func value(_ json: JSON, type: ProtoType, path: String) throws(ProtobufError) -> ProtoValue {
        func fail(_ reason: String) -> ProtobufError { .invalidJSON(path: path, reason: reason) }
        switch type {
        case .bool:
            guard case .bool(let flag) = json else { throw fail("expected true or false") }
            return .bool(flag)
        case .string:
            guard case .string(let text) = json else { throw fail("expected a string") }
            return .string(text)
        case .bytes:
            guard case .string(let text) = json, let bytes = Base64.decode(text) else { throw fail("expected base64 text") }
            return .bytes(bytes)
        case .float, .double:
            let text: String
            switch json {
            case .number(let number): text = number
            case .string(let string):
                // A number in a string must still be a JSON number (no "inf", "0x1p3", " 1").
                guard ["NaN", "Infinity", "-Infinity"].contains(string) || (try? JSON.parse(string))?.numberText == string else {
                    throw fail("expected a number")
                }
                text = string
            default: throw fail("expected a number")
            }
            let special = ["NaN": Double.nan, "Infinity": Double.infinity, "-Infinity": -Double.infinity][text]
            if type == .float {
                guard let float = special.map(Float.init) ?? Float(text), float.isFinite || special != nil else {
                    throw fail("expected a float")
                }
                return .float(bits: float.bitPattern)
            }
            guard let double = special ?? Double(text), double.isFinite || special != nil else { throw fail("expected a double") }
            return .double(bits: double.bitPattern)
        case .enumeration(let name):
            if case .string(let valueName) = json {
                guard let number = registry.enumSchema(name)?.number(of: valueName) else {
                    throw fail("\(name) has no value \(valueName)")
                }
                return .enumeration(number)
            }
            guard let number = json.integerValue.flatMap(Int32.init(exactly:)) else { throw fail("expected an enum name or number") }
            return .enumeration(number)
        case .message(let name):
            guard let schema = registry.messageSchema(name) else { throw fail("no message type \(name)") }
            return .message(try ProtoMessage(json: json, schema: schema, registry: registry, path: path))
        default:
            let text: String
            switch json {
            case .number(let number): text = number
            case .string(let string): text = string
            default: throw fail("expected an integer")
            }
            // A whole number in any JSON form (`100`, `100.0`, `1e2`), quoted or not, as proto3 JSON
            // takes it (protobuf.dev, "ProtoJSON Format", the int32/int64 rows of the mapping table).
            let whole = text.hasPrefix("+") ? nil : JSON.number(text).integerValue.map(Int64.init)
            if let range = type.signedRange {
                guard let number = whole, range.contains(number) else { throw fail("expected a \(type.protoName)") }
                return .int(number)
            }
            guard !text.hasPrefix("+"), let number = UInt64(text) ?? whole.flatMap(UInt64.init(exactly:)), number <= type.unsignedMax ?? 0 else {
                throw fail("expected a \(type.protoName)")
            }
            return .uint(number)
        }
    }
}

extension ProtoRegistry {
    /// Reads proto3 JSON as a `fullName` message.
    package func decode(_ fullName: String, json: JSON) throws(ProtobufError) -> ProtoMessage {
        guard let schema = messageSchema(fullName) else { throw .invalidJSON(path: "", reason: "no message type \(fullName)") }
        return try ProtoMessage(json: json, schema: schema, registry: self)
    }

    /// Reads proto3 JSON text as a `fullName` message.
    package func decode(_ fullName: String, jsonText: some Collection<UInt8>) throws(ProtobufError) -> ProtoMessage {
        let json: JSON
        do {
            json = try JSON.parse(jsonText)
        } catch {
            throw .invalidJSON(path: "", reason: "not JSON: \(error)")
        }
        return try decode(fullName, json: json)
    }
}
