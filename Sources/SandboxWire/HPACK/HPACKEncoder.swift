// Encoding header blocks, RFC 7541 §6 (representations), §4.2 and §6.3 (table size updates).

/// Turns header fields into a header block, keeping a dynamic table the peer's decoder mirrors.
///
/// ```swift
/// var encoder = HPACKEncoder()
/// var block: [UInt8] = []
/// encoder.beginBlock(into: &block)
/// encoder.encode(":status", "200", into: &block)                        // 0x88
/// encoder.encode("set-cookie", "id=1", indexing: .never, into: &block)
/// ```
///
/// A field equal to a table entry is one indexed representation (the static table first, then the
/// newest dynamic entry); otherwise a literal whose name is indexed when some entry has it (the
/// static table's lowest index first). Both lookups are dictionary lookups, never a scan.
struct HPACKEncoder: Sendable {
    /// How a literal field is represented (RFC 7541 §6.2).
    enum Indexing: Sendable {
        /// Added to the dynamic table (§6.2.1).
        case incremental
        /// Not added to the table (§6.2.2); still sent indexed when an entry equals it.
        case none
        /// Never indexed, here or by intermediaries (§6.2.3), for sensitive values: always a
        /// literal, even when an entry equals it (only the name may be indexed).
        case never
    }

    /// Whether string literals are Huffman-coded when that is not longer. Default true.
    var useHuffman = true
    private var table: HPACKDynamicTable
    /// The smallest maximum set since the last block, when a size update is due.
    private var pendingMinimum: Int?

    /// An encoder whose table starts at `maxTableSize` (the peer's SETTINGS_HEADER_TABLE_SIZE,
    /// 4096 until it says otherwise).
    init(maxTableSize: Int = 4096) {
        table = HPACKDynamicTable(maxSize: max(0, maxTableSize), lookups: true)
    }

    /// The dynamic table's current size in RFC 7541 §4.1 octets.
    var dynamicTableSize: Int { table.size }

    /// The dynamic table's current maximum size.
    var dynamicTableMaxSize: Int { table.maxSize }

    /// The number of entries in the dynamic table.
    var dynamicTableCount: Int { table.count }

    /// The dynamic table's entry at `index` (1 is the newest), or nil (for tests and diagnostics).
    func dynamicTableEntry(_ index: Int) -> HPACKHeader? { table[index] }

    /// The peer's SETTINGS_HEADER_TABLE_SIZE changed: the encoder shrinks its table and emits a
    /// dynamic table size update at the start of the next block (RFC 7541 §4.2, §6.3). When the
    /// size went down and up again since the last block, both the smallest and the last value
    /// are emitted, so the peer evicts what this side did.
    mutating func setMaxTableSize(_ size: Int) {
        let size = max(0, size)
        guard size != table.maxSize || pendingMinimum != nil else { return }
        pendingMinimum = min(pendingMinimum ?? size, size)
        table.setMaxSize(size)
    }

    /// Call at the start of each header block (emits a pending table size update, if any).
    mutating func beginBlock(into block: inout [UInt8]) {
        guard let minimum = pendingMinimum else { return }
        if minimum < table.maxSize { HPACKInteger.encode(minimum, prefix: 5, flags: 0x20, into: &block) }
        HPACKInteger.encode(table.maxSize, prefix: 5, flags: 0x20, into: &block)
        pendingMinimum = nil
    }

    /// Encodes one field: an exact match in the static or dynamic table is emitted as an indexed
    /// field (except with `.never`); otherwise a literal (name indexed when possible) with the
    /// given indexing.
    mutating func encode(_ name: String, _ value: String, indexing: Indexing = .incremental, into block: inout [UInt8]) {
        let header = HPACKHeader(name, value)
        if indexing != .never {
            if let index = HPACKStaticTable.exact[header] {
                HPACKInteger.encode(index, prefix: 7, flags: 0x80, into: &block)
                return
            }
            if let index = table.index(of: header) {
                HPACKInteger.encode(HPACKStaticTable.count + index, prefix: 7, flags: 0x80, into: &block)
                return
            }
        }
        let nameIndex = HPACKStaticTable.names[name] ?? table.index(ofName: name).map { HPACKStaticTable.count + $0 } ?? 0
        switch indexing {
        case .incremental: HPACKInteger.encode(nameIndex, prefix: 6, flags: 0x40, into: &block)
        case .none: HPACKInteger.encode(nameIndex, prefix: 4, flags: 0x00, into: &block)
        case .never: HPACKInteger.encode(nameIndex, prefix: 4, flags: 0x10, into: &block)
        }
        if nameIndex == 0 { appendString(name, into: &block) }
        appendString(value, into: &block)
        if indexing == .incremental { table.insert(header) }
    }

    /// Encodes `header` (see `encode(_:_:indexing:into:)`).
    mutating func encode(_ header: HPACKHeader, indexing: Indexing = .incremental, into block: inout [UInt8]) {
        encode(header.name, header.value, indexing: indexing, into: &block)
    }

    /// A string literal (§5.2): Huffman-coded when `useHuffman` and that is not longer.
    private func appendString(_ string: String, into block: inout [UInt8]) {
        let useHuffman = useHuffman
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
            Self.appendString(bytes, huffman: useHuffman, into: &block)
        }
        if done == nil {
            Array(string.utf8).withUnsafeBufferPointer { Self.appendString($0, huffman: useHuffman, into: &block) }
        }
    }

    private static func appendString(_ bytes: UnsafeBufferPointer<UInt8>, huffman: Bool, into block: inout [UInt8]) {
        if huffman {
            let count = Huffman.encodedCount(buffer: bytes)
            if count <= bytes.count {
                HPACKInteger.encode(count, prefix: 7, flags: 0x80, into: &block)
                Huffman.encode(buffer: bytes, into: &block)
                return
            }
        }
        HPACKInteger.encode(bytes.count, prefix: 7, flags: 0x00, into: &block)
        block.append(contentsOf: bytes)
    }
}
