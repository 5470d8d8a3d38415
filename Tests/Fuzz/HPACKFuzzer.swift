// libFuzzer harness for the HPACK decoder and encoder (RFC 7541). Built and run by .ci/fuzz;
// seeds in Tests/Fuzz/corpus/hpack (the Appendix C blocks), dictionary Tests/Fuzz/hpack.dict.
//
// Any input is a header block a peer may send: once whole, and once cut in two (two blocks in a
// row on one decoder, so the second refers to what the first added). The properties, any break
// of which traps:
//   * decoding never crashes, whatever the bytes;
//   * a list it returns is within maxHeaderListSize, and the table within its maximum, which is
//     within the advertised SETTINGS_HEADER_TABLE_SIZE;
//   * a limited decoder and an unlimited one agree: same list when it fits, headerListTooLarge
//     when it does not (never a compression error the other did not see), same table after;
//   * what it decodes, re-encoded with a fresh encoder (Huffman and indexing chosen per input)
//     and decoded with a fresh decoder, is the same list, the two tables the same size.

@testable import SandboxWire

private func listSize(_ headers: [HPACKHeader]) -> Int {
    headers.reduce(0) { $0 + $1.size }
}

private func table(_ decoder: HPACKDecoder) -> [HPACKHeader] {
    (0 ..< decoder.dynamicTableCount).compactMap { decoder.dynamicTableEntry($0 + 1) }
}

/// Decodes `block` with `limited` and `unlimited` (same tables so far) and checks they agree.
/// Returns the list (nil when it was too large), or nil for both when the block is malformed
/// (the decoders are then out of step with any encoder, and done).
private func decodeBoth(_ block: [UInt8], _ limited: inout HPACKDecoder, _ unlimited: inout HPACKDecoder,
                        _ input: [UInt8]) -> (headers: [HPACKHeader]?, malformed: Bool) {
    let full: Result<[HPACKHeader], HPACKError> = Result { () throws(HPACKError) in try unlimited.decode(block) }
    let bounded: Result<[HPACKHeader], HPACKError> = Result { () throws(HPACKError) in try limited.decode(block) }
    if fuzzShow { fuzzShowLine("block \(block.count) octets: \(bounded)") }
    guard limited.dynamicTableSize <= limited.dynamicTableMaxSize, limited.dynamicTableMaxSize <= limited.maxTableSize else {
        fuzzFail("table of \(limited.dynamicTableSize) over its maximum \(limited.dynamicTableMaxSize) / \(limited.maxTableSize)", input)
    }
    switch (full, bounded) {
    case (.success(let all), .success(let headers)):
        guard headers == all else { fuzzFail("the limited decoder decoded another list", input) }
        guard listSize(headers) <= limited.maxHeaderListSize else { fuzzFail("a list over the limit was returned", input) }
    case (.success(let all), .failure(let error)):
        guard error.isHeaderListTooLarge, listSize(all) > limited.maxHeaderListSize else {
            fuzzFail("the limited decoder failed with \(error) on a list of \(listSize(all))", input)
        }
    case (.failure(let error), .success):
        fuzzFail("only the unlimited decoder failed: \(error)", input)
    case (.failure(let a), .failure(let b)):
        guard a == b else { fuzzFail("the decoders failed differently: \(a) / \(b)", input) }
        return (nil, true)
    }
    guard table(limited) == table(unlimited), limited.dynamicTableSize == unlimited.dynamicTableSize else {
        fuzzFail("the limited decoder's table is out of step", input)
    }
    return (try? bounded.get(), false)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func hpackFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    let hash = fuzzHash(input)
    let tableSize = [0, 64, 256, 4096][Int(hash & 3)]
    let listLimit = [64, 512, 16 * 1024][Int((hash >> 2) % 3)]

    // Whole, then cut in two at a per-input point (two blocks on one decoder).
    let cut = input.isEmpty ? 0 : Int((hash >> 8) % UInt64(input.count + 1))
    for blocks in [[input], [Array(input[..<cut]), Array(input[cut...])]] {
        var limited = HPACKDecoder(maxTableSize: tableSize, maxHeaderListSize: listLimit)
        var unlimited = HPACKDecoder(maxTableSize: tableSize, maxHeaderListSize: Int.max)
        for block in blocks {
            let (decoded, malformed) = decodeBoth(block, &limited, &unlimited, input)
            if malformed { break }
            guard let headers = decoded else { continue }  // too large: the next block still decodes

            // Re-encoded with a fresh encoder, decoded with a fresh decoder: the same list.
            var encoder = HPACKEncoder(maxTableSize: tableSize)
            encoder.useHuffman = hash & 0x10 != 0
            var encoded: [UInt8] = []
            encoder.beginBlock(into: &encoded)
            for (offset, header) in headers.enumerated() {
                let choice = (hash >> UInt64(offset % 60)) & 3
                let indexing: HPACKEncoder.Indexing = choice == 0 ? .none : choice == 1 ? .never : .incremental
                encoder.encode(header.name, header.value, indexing: indexing, into: &encoded)
            }
            var fresh = HPACKDecoder(maxTableSize: tableSize, maxHeaderListSize: Int.max)
            guard let again = try? fresh.decode(encoded) else { fuzzFail("the re-encoded list does not decode", input) }
            guard again == headers else { fuzzFail("the re-encoded list decodes to another list", input) }
            guard fresh.dynamicTableSize == encoder.dynamicTableSize else { fuzzFail("the re-encoded tables differ", input) }
        }
    }
    return 0
}
