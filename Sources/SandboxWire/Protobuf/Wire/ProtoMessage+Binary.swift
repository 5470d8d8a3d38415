// Binary coding of ProtoMessage, proto3 rules (https://protobuf.dev/programming-guides/encoding/):
// fields in number order, packed repeated scalars, zero values of fields without presence left
// out, unknown fields re-emitted after the known ones. Decoding accepts repeated scalars packed
// or not, lets the last value of a singular field win (messages merge), and keeps a known field
// with an unexpected wire type as an unknown field, as protobuf's own parsers do.

extension ProtoMessage {
    /// The wire-format bytes.
    func encoded() -> [UInt8] {
        var writer = ProtobufWriter()
        write(into: &writer)
        return writer.bytes
    }

    /// Appends the wire-format fields to `writer`.
    package func write(into writer: inout ProtobufWriter) {
        for number in values.keys.sorted() {
            guard let field = schema.field(number: number), let value = values[number] else { continue }
            guard case .list(let elements) = value else {
                Self.write(value, field: number, type: field.type, into: &writer)
                continue
            }
            if field.type.isPackable {
                var packed = ProtobufWriter()
                for element in elements { Self.writeBare(element, type: field.type, into: &packed) }
                writer.writeBytesField(number, packed.bytes)
            } else {
                for element in elements { Self.write(element, field: number, type: field.type, into: &writer) }
            }
        }
        writer.writeRaw(unknownFields)
    }

    private static func write(_ value: ProtoValue, field: Int, type: ProtoType, into writer: inout ProtobufWriter) {
        writer.writeTag(field, type.wireType)
        writeBare(value, type: type, into: &writer)
    }

    /// A value without its tag (what a packed field lists).
    private static func writeBare(_ value: ProtoValue, type: ProtoType, into writer: inout ProtobufWriter) {
        switch (value, type) {
        case (.int(let number), .sint32), (.int(let number), .sint64): writer.writeVarint(ProtobufWriter.zigZag(number))
        case (.int(let number), .sfixed32): writer.writeFixed32(UInt32(truncatingIfNeeded: number))
        case (.int(let number), .sfixed64): writer.writeFixed64(UInt64(bitPattern: number))
        case (.int(let number), _): writer.writeVarint(UInt64(bitPattern: number))
        case (.uint(let number), .fixed32): writer.writeFixed32(UInt32(truncatingIfNeeded: number))
        case (.uint(let number), .fixed64): writer.writeFixed64(number)
        case (.uint(let number), _): writer.writeVarint(number)
        case (.bool(let flag), _): writer.writeVarint(flag ? 1 : 0)
        case (.enumeration(let number), _): writer.writeVarint(UInt64(bitPattern: Int64(number)))
        case (.float(let bits), _): writer.writeFixed32(bits)
        case (.double(let bits), _): writer.writeFixed64(bits)
        case (.string(let text), _): writer.writeLengthDelimited(Array(text.utf8))
        case (.bytes(let bytes), _): writer.writeLengthDelimited(bytes)
        case (.message(let message), _): writer.writeLengthDelimited(message.encoded())
        case (.list, _): break  // lists do not nest
        }
    }

    /// Reads fields from `reader` into this message until the reader's end.
    mutating func merge(from reader: inout ProtobufReader) throws(ProtobufError) {
        while true {
            let start = reader.offset
            guard let (number, wireType) = try reader.nextTag() else { return }
            if wireType == .endGroup { throw .unbalancedGroup }
            guard let field = schema.field(number: number) else {
                try reader.skip(wireType, field: number)
                unknownFields += reader.bytesRead(since: start)
                continue
            }
            if field.label == .repeated, field.type.isPackable, wireType == .lengthDelimited {
                var packed = try reader.readPacked()
                var elements: [ProtoValue] = []
                while !packed.isAtEnd { elements.append(try read(field, from: &packed)) }
                append(elements, to: field)
            } else if wireType == field.type.wireType {
                if field.label == .repeated {
                    append([try read(field, from: &reader)], to: field)
                } else if case .message = field.type, case .message(var existing)? = values[number] {
                    var nested = try reader.readMessage()
                    values[number] = nil  // existing stays uniquely referenced while it merges
                    try existing.merge(from: &nested)
                    set(.message(existing), for: field)
                } else {
                    set(try read(field, from: &reader), for: field)
                }
            } else {
                try reader.skip(wireType, field: number)
                unknownFields += reader.bytesRead(since: start)
            }
        }
    }

    private mutating func append(_ elements: [ProtoValue], to field: FieldSchema) {
        guard !elements.isEmpty else { return }
        var list: [ProtoValue] = []
        if case .list(let existing)? = values.removeValue(forKey: field.number) { list = existing }
        list += elements
        values[field.number] = .list(list)
    }

    /// One value of `field`'s type (its tag already read).
    private func read(_ field: FieldSchema, from reader: inout ProtobufReader) throws(ProtobufError) -> ProtoValue {
        switch field.type {
        case .int32: return .int(Int64(Int32(truncatingIfNeeded: try reader.readVarint())))
        case .int64: return .int(Int64(bitPattern: try reader.readVarint()))
        case .uint32: return .uint(UInt64(UInt32(truncatingIfNeeded: try reader.readVarint())))
        case .uint64: return .uint(try reader.readVarint())
        case .sint32: return .int(Int64(ProtobufReader.unZigZag(UInt32(truncatingIfNeeded: try reader.readVarint()))))
        case .sint64: return .int(ProtobufReader.unZigZag(try reader.readVarint()))
        case .bool: return .bool(try reader.readVarint() != 0)
        case .enumeration: return .enumeration(Int32(truncatingIfNeeded: try reader.readVarint()))
        case .fixed32: return .uint(UInt64(try reader.readFixed32()))
        case .sfixed32: return .int(Int64(Int32(bitPattern: try reader.readFixed32())))
        case .float: return .float(bits: try reader.readFixed32())
        case .fixed64: return .uint(try reader.readFixed64())
        case .sfixed64: return .int(Int64(bitPattern: try reader.readFixed64()))
        case .double: return .double(bits: try reader.readFixed64())
        case .bytes: return .bytes(Array(try reader.readLengthDelimited()))
        case .string:
            guard let text = String(validating: try reader.readLengthDelimited(), as: UTF8.self) else {
                throw .invalidUTF8(field: "\(schema.fullName).\(field.name)")
            }
            return .string(text)
        case .message(let name):
            var nested = try reader.readMessage()
            var message = registry.message(name)
            try message.merge(from: &nested)
            return .message(message)
        }
    }
}
