/// A set of ``ProtoFile``s whose type names resolve: where messages are decoded and made, and
/// what server reflection answers from.
///
/// Every message or enum a field names, every method's input and output, and every file a file
/// imports must be in the registry (declaring one that is not is a programming error and traps
/// at startup, with the name).
///
/// ```swift
/// let registry = ProtoRegistry([paymentFile, payoutsFile])
/// var request = try registry.decode("types.PayoutServiceGetRequest", from: bytes)
/// let id = request.string("connector_payout_id")
/// var response = registry.message("types.PayoutServiceGetResponse")
/// response["status"] = "SUCCESS"
/// ```
public final class ProtoRegistry: Sendable {
    /// The files in the order given.
    public let files: [ProtoFile]
    private let fileIndex: [String: Int]
    private let messageSchemas: [String: MessageSchema]
    private let enumSchemas: [String: EnumSchema]
    private let symbolFiles: [String: String]

    /// A registry of `files` (and nothing else: imports must be among them).
    public init(_ files: [ProtoFile]) {
        self.files = files
        var fileIndex: [String: Int] = [:]
        var messages: [String: MessageSchema] = [:]
        var enums: [String: EnumSchema] = [:]
        var symbols: [String: String] = [:]
        for (index, file) in files.enumerated() {
            precondition(fileIndex.updateValue(index, forKey: file.name) == nil, "file \(file.name) is registered twice")
            for message in file.messages.flatMap(\.allMessages) { messages[message.fullName] = message }
            for schema in file.enums + file.messages.flatMap(\.allEnums) { enums[schema.fullName] = schema }
            for symbol in file.symbols {
                precondition(symbols.updateValue(file.name, forKey: symbol) == nil, "\(symbol) is defined twice")
            }
        }
        self.fileIndex = fileIndex
        messageSchemas = messages
        enumSchemas = enums
        symbolFiles = symbols
        for file in files {
            for dependency in file.dependencies {
                precondition(fileIndex[dependency] != nil, "\(file.name) imports \(dependency), which is not registered")
            }
            for field in file.messages.flatMap(\.allMessages).flatMap(\.fields) {
                switch field.type {
                case .message(let name): precondition(messages[name] != nil, "field \(field.name): no message \(name)")
                case .enumeration(let name): precondition(enums[name] != nil, "field \(field.name): no enum \(name)")
                default: break
                }
            }
            for method in file.services.flatMap(\.methods) {
                precondition(messages[method.input] != nil && messages[method.output] != nil,
                             "method \(method.name): \(method.input) or \(method.output) is not registered")
            }
        }
    }

    /// The message type named `fullName`.
    public func messageSchema(_ fullName: String) -> MessageSchema? {
        messageSchemas[fullName]
    }

    /// The enum named `fullName`.
    public func enumSchema(_ fullName: String) -> EnumSchema? {
        enumSchemas[fullName]
    }

    /// Every service of every file, in order.
    public var services: [ServiceSchema] {
        files.flatMap(\.services)
    }

    /// The service named `fullName`.
    public func service(_ fullName: String) -> ServiceSchema? {
        services.first { $0.fullName == fullName }
    }

    /// The file named `name`.
    public func file(named name: String) -> ProtoFile? {
        fileIndex[name].map { files[$0] }
    }

    /// The file that defines `symbol` (a message, field, enum, enum value, service or method).
    public func file(containingSymbol symbol: String) -> ProtoFile? {
        symbolFiles[symbol].flatMap(file(named:))
    }

    /// `file` followed by everything it imports, transitively, each once (what reflection sends).
    public func withDependencies(_ file: ProtoFile) -> [ProtoFile] {
        var result: [ProtoFile] = []
        var seen: Set<String> = []
        var pending = [file]
        while let next = pending.popLast() {
            guard seen.insert(next.name).inserted else { continue }
            result.append(next)
            pending += next.dependencies.reversed().compactMap(self.file(named:))
        }
        return result
    }

    /// An empty message of type `fullName` (a programming error if it is not registered).
    public func message(_ fullName: String) -> ProtoMessage {
        guard let schema = messageSchemas[fullName] else { preconditionFailure("no message type \(fullName)") }
        return ProtoMessage(schema, registry: self)
    }

    /// Decodes wire-format `bytes` as a `fullName` message.
    public func decode(_ fullName: String, from bytes: [UInt8]) throws(ProtobufError) -> ProtoMessage {
        var message = self.message(fullName)
        var reader = ProtobufReader(bytes)
        try message.merge(from: &reader)
        return message
    }
}
