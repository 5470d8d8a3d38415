// Decoding header blocks, RFC 7541 §3 (processing) and §6 (the binary format), with the
// dynamic table size update rules of §4.2 and §6.3.

/// Turns header blocks into header lists, keeping the dynamic table in step with the peer's encoder.
///
/// ```swift
/// var decoder = HPACKDecoder()
/// let headers = try decoder.decode(block)   // HEADERS + CONTINUATION payloads, joined
/// ```
///
/// Memory is bounded by the block and the settings: a literal is never longer than the rest of
/// the block (so at most 8/5 of it once Huffman-decoded, in a scratch buffer reused across fields);
/// the list returned holds at most `maxHeaderListSize` (once a field would exceed it the decoder
/// keeps no more fields but reads on, inserting into the table as the block says, then throws
/// `.headerListTooLarge`); the table holds at most the advertised `maxTableSize`. Bounding the
/// block itself is the framing layer's business. So no literal, however long, is a compression
/// error for its length alone.
struct HPACKDecoder: Sendable {
    /// The largest header list `decode` returns, in RFC 9113 §6.5.2 octets (name + value + 32
    /// per field); SETTINGS_MAX_HEADER_LIST_SIZE.
    var maxHeaderListSize: Int
    /// The SETTINGS_HEADER_TABLE_SIZE this side advertised: a size update above it is an error.
    private(set) var maxTableSize: Int
    private var table: HPACKDynamicTable
    /// Set when `maxTableSize` went below the table's maximum: the next block must start with a
    /// size update (RFC 7541 §4.2).
    private var sizeUpdateRequired = false
    private var scratch: [UInt8] = []

    /// A decoder whose table starts at (and may grow to) `maxTableSize`, the advertised
    /// SETTINGS_HEADER_TABLE_SIZE, and that refuses lists over `maxHeaderListSize`.
    init(maxTableSize: Int = 4096, maxHeaderListSize: Int = 16 * 1024) {
        self.maxTableSize = max(0, maxTableSize)
        self.maxHeaderListSize = maxHeaderListSize
        table = HPACKDynamicTable(maxSize: self.maxTableSize, lookups: false)
    }

    /// The dynamic table's current size in RFC 7541 §4.1 octets.
    var dynamicTableSize: Int { table.size }

    /// The dynamic table's current maximum size: the peer encoder's last size update.
    var dynamicTableMaxSize: Int { table.maxSize }

    /// The number of entries in the dynamic table.
    var dynamicTableCount: Int { table.count }

    /// The dynamic table's entry at `index` (1 is the newest), or nil (for tests and diagnostics).
    func dynamicTableEntry(_ index: Int) -> HPACKHeader? { table[index] }

    /// This side now advertises `size` as SETTINGS_HEADER_TABLE_SIZE (call once the peer has
    /// acknowledged the SETTINGS). When it is below the table's current maximum, the next block
    /// must start with a size update to at most `size`, or it is a compression error.
    mutating func setMaxTableSize(_ size: Int) {
        maxTableSize = max(0, size)
        if maxTableSize < table.maxSize { sizeUpdateRequired = true }
    }

    /// Decodes one complete header block (HEADERS + CONTINUATION fragments already joined).
    package mutating func decode(_ block: [UInt8]) throws(HPACKError) -> [HPACKHeader] {
        let result: Result<[HPACKHeader], HPACKError> = block.withUnsafeBytes { buffer in
            do throws(HPACKError) { return .success(try decode(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Decodes one complete header block (HEADERS + CONTINUATION fragments already joined).
    /// After a compression error the decoder is out of step and must be discarded; after
    /// `.headerListTooLarge` it is in step and decodes the next block.
    package mutating func decode(_ block: UnsafeRawBufferPointer) throws(HPACKError) -> [HPACKHeader] {
        var headers: [HPACKHeader] = []
        var listSize = 0
        var tooLarge = false
        var position = 0
        var atStart = true
        defer { if scratch.capacity > 1 << 16 { scratch = [] } }
        while position < block.count {
            let first = block[position]
            if first & 0xE0 == 0x20 {  // §6.3 dynamic table size update: 001xxxxx
                guard atStart else { throw .compression("dynamic table size update after a field") }
                let size = try HPACKInteger.decode(block, &position, prefix: 5)
                guard size <= maxTableSize else { throw .compression("dynamic table size update to \(size), above \(maxTableSize)") }
                table.setMaxSize(size)
                sizeUpdateRequired = false
                continue
            }
            guard !sizeUpdateRequired else { throw .compression("no dynamic table size update after the maximum was lowered") }
            atStart = false
            let header: HPACKHeader
            if first & 0x80 != 0 {  // §6.1 indexed: 1xxxxxxx
                header = try field(at: HPACKInteger.decode(block, &position, prefix: 7))
            } else if first & 0x40 != 0 {  // §6.2.1 with incremental indexing: 01xxxxxx
                header = try literal(block, &position, prefix: 6)
                table.insert(header)
            } else {  // §6.2.2 without indexing 0000xxxx, §6.2.3 never indexed 0001xxxx
                header = try literal(block, &position, prefix: 4)
            }
            if !tooLarge {
                listSize += header.size
                if listSize > maxHeaderListSize {
                    tooLarge = true
                    headers = []
                } else {
                    headers.append(header)
                }
            }
        }
        guard !sizeUpdateRequired else { throw .compression("no dynamic table size update after the maximum was lowered") }
        if tooLarge { throw .headerListTooLarge }
        return headers
    }

    /// The field at `index` in the static table then the dynamic one (§2.3.3).
    private func field(at index: Int) throws(HPACKError) -> HPACKHeader {
        guard index > 0 else { throw .compression("index 0") }
        if index <= HPACKStaticTable.count { return HPACKStaticTable.entries[index - 1] }
        guard let header = table[index - HPACKStaticTable.count] else {
            throw .compression("index \(index) beyond the tables (\(HPACKStaticTable.count) + \(table.count) entries)")
        }
        return header
    }

    /// A literal field (§6.2): its name's index with a `prefix`-bit prefix (0: a literal name
    /// follows), then its value.
    private mutating func literal(_ block: UnsafeRawBufferPointer, _ position: inout Int, prefix: Int) throws(HPACKError) -> HPACKHeader {
        let index = try HPACKInteger.decode(block, &position, prefix: prefix)
        let name: (text: String, octets: Int)
        if index == 0 {
            name = try string(block, &position)
        } else {
            let field = try field(at: index)
            name = (field.name, field.nameOctets)
        }
        let value = try string(block, &position)
        return HPACKHeader(name.text, nameOctets: name.octets, value.text, valueOctets: value.octets)
    }

    /// A string literal (§5.2): a Huffman flag and 7-bit-prefix length, then that many octets;
    /// the text, and how many octets it was (which the table's sizes count).
    private mutating func string(_ block: UnsafeRawBufferPointer, _ position: inout Int) throws(HPACKError) -> (text: String, octets: Int) {
        guard position < block.count else { throw .compression("truncated field") }
        let huffman = block[position] & 0x80 != 0
        let length = try HPACKInteger.decode(block, &position, prefix: 7)
        guard length <= block.count - position else { throw .compression("string literal of \(length) octets past the end of the block") }
        let bytes = UnsafeRawBufferPointer(rebasing: block[position ..< position + length])
        position += length
        guard huffman else { return (String(decoding: bytes, as: UTF8.self), length) }
        scratch.removeAll(keepingCapacity: true)
        guard Huffman.decode(bytes, into: &scratch) else { throw .compression("invalid Huffman-coded string") }
        return (String(decoding: scratch, as: UTF8.self), scratch.count)
    }
}
