/// `.proto` files read into schemas: the one declaration of a gRPC API that the sandbox serves,
/// from which its decoding, encoding, JSON mapping and reflection descriptors all come.
///
/// ```swift
/// let files = try ProtoText.files([("payouts.proto", payoutsText), ("payment.proto", paymentText)])
/// let registry = ProtoRegistry(files)
/// ```
///
/// It reads proto3 declarations: `syntax`, `package`, `import`, messages (fields `optional`,
/// `repeated` or plain, of scalar, message or enum types; `oneof`; nested messages and enums),
/// enums and services (unary and streaming `rpc`s). What the schemas cannot carry is refused with
/// its place, rather than left out of the descriptors: options, `map` fields, `reserved`,
/// extensions, groups and proto2. A type name is looked up as protoc does, from the innermost
/// scope of its use outwards, in the files given (each file sees all of them).
package enum ProtoText {
    /// The files `sources` declare (each a name, as imports name it, and its text), in their
    /// order; every import must name one of them.
    package static func files(_ sources: [(name: String, text: String)]) throws(ProtoTextError) -> [ProtoFile] {
        var resolver = try resolver(sources)
        return try resolver.resolved()
    }

    /// The services `source` declares (a file's name and text), read from that file alone, without
    /// the files it imports: what a server needs to route its methods at start-up, a fraction of
    /// the work of ``files(_:)`` (``ProtoRegistry/init(services:files:)``, which checks them
    /// against the whole read when it first needs the files). A method's types are taken as the
    /// file writes them: fully qualified (`.pkg.Message`), else as declared in its own package,
    /// as a services file beside its messages' files writes them (Prism's `services.proto`).
    package static func services(of source: (name: String, text: String)) throws(ProtoTextError) -> [ServiceSchema] {
        var parser = try ProtoParser(source.text, file: source.name)
        return try ProtoResolver.services(declaredIn: parser.file())
    }

    private static func resolver(_ sources: [(name: String, text: String)]) throws(ProtoTextError) -> ProtoResolver {
        var parsed: [ProtoParser.File] = []
        for source in sources {
            var parser = try ProtoParser(source.text, file: source.name)
            parsed.append(try parser.file())
        }
        return ProtoResolver(parsed)
    }
}

/// Why `.proto` text could not be read: the file, the place and what was expected.
package struct ProtoTextError: Error, Equatable, CustomStringConvertible {
    let file: String
    /// 1-based; 0 when the error is about the file as a whole.
    package let line: Int
    let column: Int
    package let message: String

    package var description: String {
        line == 0 ? "\(file): \(message)" : "\(file):\(line):\(column): \(message)"
    }
}
