// Turns parsed `.proto` declarations into schemas: full names, every type reference found as
// protoc finds it (the innermost scope of its use first, then each enclosing one: in
// `types.PayoutServiceCreateRequest`, `Money` is tried as `types.PayoutServiceCreateRequest.Money`,
// then `types.Money`, then `Money`), and the checks the schemas' initializers would otherwise
// trap on made into errors with their place.

struct ProtoResolver {
    private enum Kind { case message, enumeration }

    private let parsed: [ProtoParser.File]
    /// Every message and enum the files declare, by full name.
    private var types: [String: Kind] = [:]

    init(_ files: [ProtoParser.File]) {
        parsed = files
    }

    /// The files' schemas, in their order.
    mutating func resolved() throws(ProtoTextError) -> [ProtoFile] {
        try declare()
        var schemas: [ProtoFile] = []
        for file in parsed { schemas.append(try resolve(file)) }
        return schemas
    }

    /// `file`'s services, read alone (``ProtoText/services(of:)``): a method's types as written,
    /// fully qualified or in the file's package. A name with a dot but no leading one (`shop.Money`)
    /// is refused: only the whole read can tell which scope it means.
    static func services(declaredIn file: ProtoParser.File) throws(ProtoTextError) -> [ServiceSchema] {
        let prefix = file.package.isEmpty ? "" : file.package + "."
        func named(_ written: String, _ place: ProtoParser.Place) throws(ProtoTextError) -> String {
            if written.hasPrefix(".") { return String(written.dropFirst()) }
            guard !written.contains(".") else {
                throw error(file, place, "\(written): a services file read alone names its methods' types in its own package, "
                                + "or fully qualified (.\(written))")
            }
            return prefix + written
        }
        var services: [ServiceSchema] = []
        for service in file.services {
            var methods: [MethodSchema] = []
            for method in service.methods {
                let (input, output) = (try named(method.input, method.place), try named(method.output, method.place))
                methods.append(MethodSchema(method.name, input: input, output: output, clientStreaming: method.clientStreaming,
                                            serverStreaming: method.serverStreaming))
            }
            services.append(ServiceSchema(prefix + service.name, methods))
        }
        return services
    }

    /// Checks the imports and that no name is declared twice, and notes every message's and
    /// enum's full name.
    private mutating func declare() throws(ProtoTextError) {
        let names = Set(parsed.map(\.name))
        for file in parsed {
            for (dependency, place) in file.imports where !names.contains(dependency) {
                throw ProtoTextError(file: file.name, line: place.line, column: place.column,
                                     message: "imports \"\(dependency)\", which is not among the files read "
                                         + "(\(parsed.map(\.name).joined(separator: ", ")))")
            }
        }
        var declared: [String: ProtoParser.Place] = [:]
        for file in parsed {
            let prefix = file.package.isEmpty ? "" : file.package + "."
            var names: [(fullName: String, kind: Kind?, place: ProtoParser.Place)] = []
            // An enum's values are names of the scope that holds the enum, as in C++ (Protocol
            // Buffers language specification, "Enum definition"): two enums side by side may not
            // share one. A name twice in one enum or one message is left to `resolve(_:)`, which says so.
            func add(_ schema: ProtoParser.Enum, in scope: String) {
                names.append((scope + schema.name, .enumeration, schema.place))
                var seen = Set<String>()
                for value in schema.values where seen.insert(value.name).inserted { names.append((scope + value.name, nil, value.place)) }
            }
            func add(_ message: ProtoParser.Message, in scope: String) {
                let fullName = scope + message.name
                names.append((fullName, .message, message.place))
                for nested in message.messages { add(nested, in: fullName + ".") }
                for nested in message.enums { add(nested, in: fullName + ".") }
                var seen = Set<String>()
                for field in message.fields where seen.insert(field.name).inserted { names.append((fullName + "." + field.name, nil, field.place)) }
            }
            for message in file.messages { add(message, in: prefix) }
            for schema in file.enums { add(schema, in: prefix) }
            for service in file.services {
                names.append((prefix + service.name, nil, service.place))
                for method in service.methods { names.append((prefix + service.name + "." + method.name, nil, method.place)) }
            }
            // In the file's order, so that the second of two is the one refused.
            for (fullName, kind, place) in names.sorted(by: { ($0.place.line, $0.place.column) < ($1.place.line, $1.place.column) }) {
                guard declared.updateValue(place, forKey: fullName) == nil else {
                    throw ProtoTextError(file: file.name, line: place.line, column: place.column, message: "\(fullName) is declared twice")
                }
                if let kind { types[fullName] = kind }
            }
        }
    }

    private static func error(_ file: ProtoParser.File, _ place: ProtoParser.Place, _ message: String) -> ProtoTextError {
        ProtoTextError(file: file.name, line: place.line, column: place.column, message: message)
    }

    /// The full name `written` refers to from `scope` in `file`, and what it is.
    private func lookUp(_ written: String, from scope: String, in file: ProtoParser.File,
                        _ place: ProtoParser.Place) throws(ProtoTextError) -> (String, Kind) {
        if written.hasPrefix(".") {
            let name = String(written.dropFirst())
            guard let kind = types[name] else { throw Self.error(file, place, "no message or enum \(name)") }
            return (name, kind)
        }
        var scope = scope
        while true {
            let candidate = scope.isEmpty ? written : scope + "." + written
            if let kind = types[candidate] { return (candidate, kind) }
            guard let dot = scope.lastIndex(of: ".") else {
                if scope.isEmpty { throw Self.error(file, place, "no message or enum \(written) is declared where it is used") }
                scope = ""
                continue
            }
            scope = String(scope[..<dot])
        }
    }

    /// `file`'s services, their methods' input and output found.
    private func services(of file: ProtoParser.File) throws(ProtoTextError) -> [ServiceSchema] {
        let prefix = file.package.isEmpty ? "" : file.package + "."
        var services: [ServiceSchema] = []
        for service in file.services {
            let fullName = prefix + service.name
            var methods: [MethodSchema] = []
            for method in service.methods {
                let input = try lookUp(method.input, from: fullName, in: file, method.place)
                let output = try lookUp(method.output, from: fullName, in: file, method.place)
                guard input.1 == .message, output.1 == .message else {
                    throw Self.error(file, method.place, "\(method.name): a method takes and returns messages")
                }
                methods.append(MethodSchema(method.name, input: input.0, output: output.0, clientStreaming: method.clientStreaming,
                                            serverStreaming: method.serverStreaming))
            }
            services.append(ServiceSchema(fullName, methods))
        }
        return services
    }

    private func resolve(_ file: ProtoParser.File) throws(ProtoTextError) -> ProtoFile {
        let prefix = file.package.isEmpty ? "" : file.package + "."
        func error(_ place: ProtoParser.Place, _ message: String) -> ProtoTextError {
            Self.error(file, place, message)
        }
        func lookUp(_ written: String, from scope: String, _ place: ProtoParser.Place) throws(ProtoTextError) -> (String, Kind) {
            try self.lookUp(written, from: scope, in: file, place)
        }
        func enumeration(_ schema: ProtoParser.Enum, fullName: String) throws(ProtoTextError) -> EnumSchema {
            guard let first = schema.values.first, first.number == 0 else {
                throw error(schema.values.first?.place ?? schema.place, "enum \(schema.name): its first value must be 0 (proto3)")
            }
            var seen = Set<String>()
            for value in schema.values where !seen.insert(value.name).inserted {
                throw error(value.place, "enum \(schema.name): the value \(value.name) is declared twice")
            }
            return EnumSchema(fullName, schema.values.map { ($0.name, $0.number) })
        }
        func messageSchema(_ message: ProtoParser.Message, fullName: String) throws(ProtoTextError) -> MessageSchema {
            var numbers = Set<Int>(), names = Set<String>()
            var fields: [FieldSchema] = []
            for field in message.fields {
                guard numbers.insert(field.number).inserted else {
                    throw error(field.place, "\(message.name): field number \(field.number) is used twice")
                }
                guard names.insert(field.name).inserted else {
                    throw error(field.place, "\(message.name): the field \(field.name) is declared twice")
                }
                let type: ProtoType
                if let scalar = Self.scalars[field.type] {
                    type = scalar
                } else {
                    let (name, kind) = try lookUp(field.type, from: fullName, field.place)
                    type = kind == .message ? .message(name) : .enumeration(name)
                }
                fields.append(FieldSchema(field.number, field.name, type, field.label, oneof: field.oneof))
            }
            var nestedMessages: [MessageSchema] = []
            for nested in message.messages { nestedMessages.append(try messageSchema(nested, fullName: fullName + "." + nested.name)) }
            var nestedEnums: [EnumSchema] = []
            for nested in message.enums { nestedEnums.append(try enumeration(nested, fullName: fullName + "." + nested.name)) }
            return MessageSchema(fullName, fields, messages: nestedMessages, enums: nestedEnums)
        }
        var messages: [MessageSchema] = []
        for declared in file.messages { messages.append(try messageSchema(declared, fullName: prefix + declared.name)) }
        var enums: [EnumSchema] = []
        for declared in file.enums { enums.append(try enumeration(declared, fullName: prefix + declared.name)) }
        return ProtoFile(name: file.name, package: file.package, dependencies: file.imports.map(\.name), messages: messages, enums: enums,
                         services: try services(of: file))
    }

    private static let scalars: [String: ProtoType] = [
        "double": .double, "float": .float, "int64": .int64, "uint64": .uint64, "int32": .int32, "fixed64": .fixed64,
        "fixed32": .fixed32, "bool": .bool, "string": .string, "bytes": .bytes, "uint32": .uint32, "sfixed32": .sfixed32,
        "sfixed64": .sfixed64, "sint32": .sint32, "sint64": .sint64,
    ]
}
