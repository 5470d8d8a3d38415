import SandboxSupport
import Synchronization

/// A set of ``ProtoFile``s whose type names resolve: where messages are decoded and made, and
/// what server reflection answers from.
///
/// Every message or enum a field names, every method's input and output, and every file a file
/// imports must be in the registry (declaring one that is not is a programming error and traps,
/// with the name, when the registry's tables are made: at once, or on first use for a registry
/// whose files are read then, ``init(services:files:)``).
///
/// ```swift
/// let registry = ProtoRegistry([paymentFile, payoutsFile])
/// var request = try registry.decode("types.PayoutServiceGetRequest", from: bytes)
/// let id = request.string("connector_payout_id")
/// var response = registry.message("types.PayoutServiceGetResponse")
/// response["status"] = "SUCCESS"
/// ```
package final class ProtoRegistry: Sendable {
    /// What is looked up by name, made from the files.
    private final class Tables: Sendable {
        let files: [ProtoFile]
        let fileIndex: [String: Int]
        let messageSchemas: [String: MessageSchema]
        let enumSchemas: [String: EnumSchema]
        let symbolFiles: [String: String]

        init(_ files: [ProtoFile]) {
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
    }

    /// Every service of every file, in order.
    let services: [ServiceSchema]
    private let tables = SetOnce<Tables>()
    /// What reads the files, until they are read (registries made with `init(services:files:)`).
    private let reader: Mutex<(@Sendable () -> [ProtoFile])?>

    /// A registry of `files` (and nothing else: imports must be among them).
    package init(_ files: [ProtoFile]) {
        services = files.flatMap(\.services)
        reader = Mutex(nil)
        _ = tables.storeIfNil(Tables(files))
    }

    /// A registry of the files `files` gives, called once, when anything but `services` is first
    /// asked for (by any thread; the others wait for it): a server routes its methods from
    /// `services`, which must be the files' (``ProtoText/services(of:)``), and reads the rest when
    /// a call first comes.
    ///
    /// ```swift
    /// let registry = ProtoRegistry(services: try ProtoText.services(of: sources[0])) { try! ProtoText.files(sources) }
    /// ```
    init(services: [ServiceSchema], files: @escaping @Sendable () -> [ProtoFile]) {
        self.services = services
        reader = Mutex(files)
    }

    /// The tables, made now if this is the first time they are needed.
    private var made: Tables {
        if let tables = tables.load() { return tables }
        return reader.withLock { reader in
            if let tables = tables.load() { return tables }
            guard let read = reader else { preconditionFailure("a registry without tables or a reader") }
            let files = read()
            let declared = files.flatMap(\.services)
            precondition(declared == services, "the files declare the services \(declared.map(\.fullName)) with other methods or "
                             + "types than were given (\(services.map(\.fullName))): a method's types, read alone, are its package's")
            reader = nil
            return tables.storeIfNil(Tables(files))
        }
    }

    /// The files in the order given.
    var files: [ProtoFile] { made.files }

    /// The message type named `fullName`.
    package func messageSchema(_ fullName: String) -> MessageSchema? {
        made.messageSchemas[fullName]
    }

    /// The enum named `fullName`.
    func enumSchema(_ fullName: String) -> EnumSchema? {
        made.enumSchemas[fullName]
    }

    /// The service named `fullName`.
    package func service(_ fullName: String) -> ServiceSchema? {
        services.first { $0.fullName == fullName }
    }

    /// The file named `name`.
    func file(named name: String) -> ProtoFile? {
        let tables = made
        return tables.fileIndex[name].map { tables.files[$0] }
    }

    /// The file that defines `symbol` (a message, field, enum, enum value, service or method).
    func file(containingSymbol symbol: String) -> ProtoFile? {
        made.symbolFiles[symbol].flatMap(file(named:))
    }

    /// `file` followed by everything it imports, transitively, each once (what reflection sends).
    func withDependencies(_ file: ProtoFile) -> [ProtoFile] {
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
    package func message(_ fullName: String) -> ProtoMessage {
        guard let schema = made.messageSchemas[fullName] else { preconditionFailure("no message type \(fullName)") }
        return ProtoMessage(schema, registry: self)
    }

    /// Decodes wire-format `bytes` as a `fullName` message.
    package func decode(_ fullName: String, from bytes: [UInt8]) throws(ProtobufError) -> ProtoMessage {
        var message = self.message(fullName)
        var reader = ProtobufReader(bytes)
        try message.merge(from: &reader)
        return message
    }
}
