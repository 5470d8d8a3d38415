
// Custom metadata (PROTOCOL-HTTP2.md, "Custom-Metadata"): lowercase names; names ending in "-bin"
// carry bytes, base64-encoded on the wire (sent unpadded; read padded or not). Names starting with
// "grpc-" are reserved for the protocol, and HTTP/2's own fields are not metadata.

/// Metadata a call carries: request headers in, response headers and trailers out.
///
/// ```swift
/// context.metadata["x-merchant-id"]            // a text value
/// context.metadata.binary("x-trace-bin")       // a -bin value, decoded
/// var reply = GRPCReply.message(response)
/// reply.trailers.add("x-journal-offset", "42")
/// ```
package struct GRPCMetadata: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// A value: text, or bytes for a `-bin` name.
    package enum Content: Sendable, Equatable {
        case text(String)
        case binary([UInt8])
    }

    /// The entries in order, names lowercase.
    package private(set) var entries: [(name: String, value: Content)] = []

    /// Empty metadata.
    init() {}

    /// Text entries from literal pairs.
    package init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    /// Adds a text entry (a `-bin` name takes the text's UTF-8 bytes).
    package mutating func add(_ name: String, _ value: String) {
        let name = name.lowercased()
        entries.append((name, name.hasSuffix("-bin") ? .binary(Array(value.utf8)) : .text(value)))
    }

    /// Adds every entry of `other`, after these.
    package mutating func append(contentsOf other: GRPCMetadata) {
        entries += other.entries
    }

    /// Adds a binary entry; `name` must end in `-bin`.
    package mutating func add(_ name: String, binary: [UInt8]) {
        precondition(name.lowercased().hasSuffix("-bin"), "binary metadata names end in -bin: \(name)")
        entries.append((name.lowercased(), .binary(binary)))
    }

    /// The first text value of `name`.
    package subscript(name: String) -> String? {
        let name = name.lowercased()
        for entry in entries where entry.name == name {
            if case .text(let text) = entry.value { return text }
        }
        return nil
    }

    /// The first binary value of `name` (a `-bin` name).
    func binary(_ name: String) -> [UInt8]? {
        let name = name.lowercased()
        for entry in entries where entry.name == name {
            if case .binary(let bytes) = entry.value { return bytes }
        }
        return nil
    }

    /// Whether there are no entries.
    package var isEmpty: Bool { entries.isEmpty }

    /// Equal when the same entries are in the same order.
    package static func == (lhs: GRPCMetadata, rhs: GRPCMetadata) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.name == $1.name && $0.value == $1.value }
    }

    /// The request's custom metadata: every header but pseudo-headers, the reserved `grpc-*` and
    /// the transport's own (`content-type`, `te`, `host`, `content-length`, `connection`).
    /// Throws INTERNAL for a `-bin` value that is not base64.
    init(requestHeaders headers: HTTPHeaders) throws(GRPCStatus) {
        for (rawName, value) in headers {
            let name = rawName.lowercased()
            guard !name.hasPrefix(":"), !name.hasPrefix("grpc-"), !Self.transportHeaders.contains(name) else { continue }
            if name.hasSuffix("-bin") {
                // Several values may arrive comma-joined (HTTP/2 allows it); each is base64.
                for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let bytes = Base64.decode(String(Self.trimmingBlanks(part))) else {
                        throw GRPCStatus(.internal, "malformed binary metadata \(name): not base64")
                    }
                    entries.append((name, .binary(bytes)))
                }
            } else {
                entries.append((name, .text(value)))
            }
        }
    }

    private static let transportHeaders: Set<String> = ["content-type", "te", "host", "content-length", "connection",
                                                        "transfer-encoding", "keep-alive", "upgrade", "proxy-connection"]

    /// The entries as header fields: `-bin` values base64-encoded without padding.
    func write(into headers: inout HTTPHeaders) {
        for (name, value) in entries {
            switch value {
            case .text(let text): headers.add(name, text)
            case .binary(let bytes): headers.add(name, Base64.encode(bytes, padded: false))
            }
        }
    }

    /// A Content-Type's media type, lowercase, without its parameters and the blanks around it
    /// (`Application/JSON; charset=utf-8` is `application/json`); nil for none.
    static func mediaType(_ contentType: String?) -> String? {
        guard let contentType else { return nil }
        let type = trimmingBlanks(contentType.utf8.firstIndex(of: UInt8(ascii: ";")).map { contentType[..<$0] } ?? contentType[...])
        return type.utf8.contains(where: { (0x41 ... 0x5A).contains($0) }) ? type.lowercased() : String(type)
    }

    /// `text` without the spaces and tabs around it.
    static func trimmingBlanks(_ text: Substring) -> Substring {
        let blank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = text.utf8.firstIndex(where: { !blank($0) }), let last = text.utf8.lastIndex(where: { !blank($0) }) else {
            return text[text.endIndex...]
        }
        return text[first ... last]
    }
}
