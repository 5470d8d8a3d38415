// The grammar of a proto3 file's declarations (Protocol Buffers language specification, proto3):
//
//   file     = syntax { import | package | message | enum | service | ";" }
//   syntax   = "syntax" "=" "\"proto3\"" ";"
//   message  = "message" ident "{" { field | oneof | message | enum | ";" } "}"
//   field    = [ "optional" | "repeated" ] type ident "=" number ";"
//   oneof    = "oneof" ident "{" { type ident "=" number ";" } "}"
//   enum     = "enum" ident "{" { ident "=" [ "-" ] integer ";" } "}"
//   service  = "service" ident "{" { "rpc" ident "(" [ "stream" ] type ")" "returns" "(" [ "stream" ] type ")" ( ";" | "{" "}" ) } "}"
//
// Types are left as written; `ProtoResolver` finds what they name once every file is read.

/// Reads one file's declarations.
struct ProtoParser {
    struct Place: Equatable {
        let line: Int
        let column: Int
    }

    struct Field {
        let name: String
        let number: Int
        /// As written: a scalar's name, or a message or enum's (relative, or absolute with a leading `.`).
        let type: String
        let label: FieldSchema.Label
        let oneof: String?
        let place: Place
    }

    struct Message {
        let name: String
        var fields: [Field] = []
        var messages: [Message] = []
        var enums: [Enum] = []
        let place: Place
    }

    struct Enum {
        let name: String
        var values: [(name: String, number: Int32, place: Place)] = []
        let place: Place
    }

    struct Method {
        let name: String
        let input: String
        let output: String
        let clientStreaming: Bool
        let serverStreaming: Bool
        let place: Place
    }

    struct Service {
        let name: String
        var methods: [Method] = []
        let place: Place
    }

    struct File {
        let name: String
        var package = ""
        var imports: [(name: String, place: Place)] = []
        var messages: [Message] = []
        var enums: [Enum] = []
        var services: [Service] = []
    }

    /// How deep messages may nest: protoc's own limit (`MaxMessageDeclarationNestingDepth`, 32), which
    /// also keeps the parser's recursion and the descriptors' nesting far from any limit.
    static let maxNesting = 32

    private let tokens: [ProtoToken]
    private let fileName: String
    private var position = 0
    /// How many messages enclose the one being read.
    private var nesting = 0

    init(_ text: String, file: String) throws(ProtoTextError) {
        tokens = try ProtoLexer.tokens(text, file: file)
        fileName = file
    }

    /// The file's declarations.
    mutating func file() throws(ProtoTextError) -> File {
        var file = File(name: fileName)
        try expectKeyword("syntax", "syntax = \"proto3\"; first")
        try expect("=")
        guard case .string(let syntax)? = peek?.kind, syntax == "proto3" else { throw error("\"proto3\" (proto2 is not read)") }
        position += 1
        try expect(";")
        var packageSeen = false
        while let token = peek {
            switch token.kind {
            case .symbol(";"): position += 1
            case .identifier("import"):
                position += 1
                if case .identifier(let word)? = peek?.kind, word == "public" || word == "weak" {
                    throw error("a plain import (\(word) imports are not read)")
                }
                guard case .string(let path)? = peek?.kind else { throw error("the path of the imported file, in quotes") }
                file.imports.append((path, place(token)))
                position += 1
                try expect(";")
            case .identifier("package"):
                guard !packageSeen else { throw error("one package statement per file") }
                position += 1
                file.package = try fullIdentifier()
                packageSeen = true
                try expect(";")
            case .identifier("message"): file.messages.append(try message())
            case .identifier("enum"): file.enums.append(try enumeration())
            case .identifier("service"): file.services.append(try service())
            default: throw unsupported(token, expected: "import, package, message, enum or service")
            }
        }
        return file
    }

    // MARK: Declarations

    private mutating func message() throws(ProtoTextError) -> Message {
        let start = try expectKeyword("message", "message")
        guard nesting < Self.maxNesting else {
            throw ProtoTextError(file: fileName, line: start.line, column: start.column,
                                 message: "messages nested more than \(Self.maxNesting) deep are not read")
        }
        nesting += 1
        defer { nesting -= 1 }
        var message = Message(name: try identifier("the message's name"), place: place(start))
        try expect("{")
        while !take("}") {
            guard let token = peek else { throw error("'}' closing message \(message.name)") }
            switch token.kind {
            case .symbol(";"): position += 1
            case .identifier("message"): message.messages.append(try self.message())
            case .identifier("enum"): message.enums.append(try enumeration())
            case .identifier("oneof"):
                position += 1
                let oneof = try identifier("the oneof's name")
                try expect("{")
                while !take("}") {
                    guard let member = peek else { throw error("'}' closing oneof \(oneof)") }
                    if case .identifier(let word) = member.kind, ["optional", "repeated", "required"].contains(word) {
                        throw error("a field without a label (a oneof's fields are singular)")
                    }
                    message.fields.append(try field(label: .singular, oneof: oneof))
                }
            case .identifier("optional"):
                position += 1
                message.fields.append(try field(label: .optional, oneof: nil))
            case .identifier("repeated"):
                position += 1
                message.fields.append(try field(label: .repeated, oneof: nil))
            case .identifier(let word) where ["option", "reserved", "extensions", "extend", "required", "group"].contains(word):
                throw unsupported(token, expected: "a field, oneof, message or enum")
            case .identifier, .symbol("."): message.fields.append(try field(label: .singular, oneof: nil))
            default: throw unsupported(token, expected: "a field, oneof, message or enum")
            }
        }
        return message
    }

    private mutating func field(label: FieldSchema.Label, oneof: String?) throws(ProtoTextError) -> Field {
        guard let start = peek else { throw error("a field") }
        let type = try typeName()
        if type == "map", peek?.kind == .symbol("<") { throw ProtoTextError(file: fileName, line: start.line, column: start.column,
                                                                            message: "map fields are not read: declare a repeated entry message") }
        let name = try identifier("the field's name")
        try expect("=")
        let number = try integer("the field number", upTo: UInt64(ProtobufReader.maxFieldNumber))
        guard number >= 1, !(19000 ... 19999).contains(number) else {
            throw ProtoTextError(file: fileName, line: tokens[position - 1].line, column: tokens[position - 1].column,
                                 message: "field number \(number) is not allowed (1 to 536870911, but 19000 to 19999)")
        }
        if peek?.kind == .symbol("[") { throw unsupported(peek!, expected: "';' (field options are not read)") }
        try expect(";")
        return Field(name: name, number: Int(number), type: type, label: label, oneof: oneof, place: place(start))
    }

    private mutating func enumeration() throws(ProtoTextError) -> Enum {
        let start = try expectKeyword("enum", "enum")
        var schema = Enum(name: try identifier("the enum's name"), place: place(start))
        try expect("{")
        while !take("}") {
            guard let token = peek else { throw error("'}' closing enum \(schema.name)") }
            if take(";") { continue }
            if case .identifier(let word) = token.kind, word == "option" || word == "reserved" {
                throw unsupported(token, expected: "an enum value")
            }
            let name = try identifier("an enum value's name")
            try expect("=")
            let negative = take("-")
            let magnitude = try integer("the value's number", upTo: negative ? UInt64(Int32.max) + 1 : UInt64(Int32.max))
            if peek?.kind == .symbol("[") { throw unsupported(peek!, expected: "';' (value options are not read)") }
            try expect(";")
            schema.values.append((name, Int32(truncatingIfNeeded: negative ? 0 &- Int64(magnitude) : Int64(magnitude)), place(token)))
        }
        return schema
    }

    private mutating func service() throws(ProtoTextError) -> Service {
        let start = try expectKeyword("service", "service")
        var service = Service(name: try identifier("the service's name"), place: place(start))
        try expect("{")
        while !take("}") {
            guard let token = peek else { throw error("'}' closing service \(service.name)") }
            if take(";") { continue }
            guard token.kind == .identifier("rpc") else { throw unsupported(token, expected: "rpc") }
            position += 1
            let name = try identifier("the method's name")
            try expect("(")
            let clientStreaming = takeKeyword("stream")
            let input = try typeName()
            try expect(")")
            try expectKeyword("returns", "returns")
            try expect("(")
            let serverStreaming = takeKeyword("stream")
            let output = try typeName()
            try expect(")")
            if take("{") {
                guard take("}") else { throw unsupported(peek, expected: "'}' (method options are not read)") }
            } else {
                try expect(";")
            }
            service.methods.append(Method(name: name, input: input, output: output, clientStreaming: clientStreaming,
                                          serverStreaming: serverStreaming, place: place(token)))
        }
        return service
    }

    // MARK: Tokens

    private var peek: ProtoToken? { position < tokens.count ? tokens[position] : nil }

    private func place(_ token: ProtoToken) -> Place { Place(line: token.line, column: token.column) }

    /// What was expected, at the next token (or at the end).
    private func error(_ expected: String) -> ProtoTextError {
        guard let token = peek else {
            let last = tokens.last
            return ProtoTextError(file: fileName, line: last?.line ?? 1, column: last?.column ?? 1,
                                  message: "expected \(expected), got the end of the file")
        }
        return ProtoTextError(file: fileName, line: token.line, column: token.column, message: "expected \(expected), got \(token.shown)")
    }

    /// A declaration the schemas cannot carry, or a token out of place.
    private func unsupported(_ token: ProtoToken?, expected: String) -> ProtoTextError {
        guard let token else { return error(expected) }
        let why: String? = switch token.kind {
        case .identifier("option"): "options are not read"
        case .identifier("reserved"): "reserved numbers and names are not read"
        case .identifier("extensions"), .identifier("extend"): "extensions are not read"
        case .identifier("required"), .identifier("group"): "proto2's \(token.shown) is not read"
        default: nil
        }
        guard let why else { return error(expected) }
        return ProtoTextError(file: fileName, line: token.line, column: token.column, message: why)
    }

    private mutating func take(_ symbol: Character) -> Bool {
        guard peek?.kind == .symbol(symbol) else { return false }
        position += 1
        return true
    }

    private mutating func takeKeyword(_ word: String) -> Bool {
        guard peek?.kind == .identifier(word) else { return false }
        position += 1
        return true
    }

    private mutating func expect(_ symbol: Character) throws(ProtoTextError) {
        guard take(symbol) else { throw error("'\(symbol)'") }
    }

    @discardableResult
    private mutating func expectKeyword(_ word: String, _ expected: String) throws(ProtoTextError) -> ProtoToken {
        guard let token = peek, token.kind == .identifier(word) else { throw error(expected) }
        position += 1
        return token
    }

    private mutating func identifier(_ expected: String) throws(ProtoTextError) -> String {
        guard case .identifier(let name)? = peek?.kind else { throw error(expected) }
        position += 1
        return name
    }

    /// `a.b.c`.
    private mutating func fullIdentifier() throws(ProtoTextError) -> String {
        var name = try identifier("a name")
        while take(".") { name += "." + (try identifier("a name after '.'")) }
        return name
    }

    /// A type as written: `string`, `Address`, `PayoutEnums.PayoutStatus`, `.types.Money`.
    private mutating func typeName() throws(ProtoTextError) -> String {
        let absolute = take(".")
        guard case .identifier? = peek?.kind else { throw error("a type") }
        return (absolute ? "." : "") + (try fullIdentifier())
    }

    private mutating func integer(_ expected: String, upTo limit: UInt64) throws(ProtoTextError) -> UInt64 {
        guard let token = peek, case .integer(let value) = token.kind else { throw error(expected) }
        guard value <= limit else {
            throw ProtoTextError(file: fileName, line: token.line, column: token.column,
                                 message: "\(expected) \(value) is out of range (at most \(limit))")
        }
        position += 1
        return value
    }
}
