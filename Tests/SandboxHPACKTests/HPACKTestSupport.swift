// Helpers shared by the HPACK tests: hex literals as the RFC prints them, and a seeded generator.

import Testing
@testable import SandboxWire

/// The bytes of `hex` ("8286 8441 ..."); spaces and newlines are ignored.
func hexBytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0, "odd hex literal \(hex)")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0 ... $0 + 1]), radix: 16)! }
}

/// Lowercase hex without spaces, for readable failures.
func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// SplitMix64: a tiny deterministic generator so random tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The decoder's dynamic table, newest first.
func entries(_ decoder: HPACKDecoder) -> [HPACKHeader] {
    (0 ..< decoder.dynamicTableCount).compactMap { decoder.dynamicTableEntry($0 + 1) }
}

/// The encoder's dynamic table, newest first.
func entries(_ encoder: HPACKEncoder) -> [HPACKHeader] {
    (0 ..< encoder.dynamicTableCount).compactMap { encoder.dynamicTableEntry($0 + 1) }
}

/// Decodes `bytes` with `decoder`, recording an issue on error.
func decodeOrRecord(_ decoder: inout HPACKDecoder, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> [HPACKHeader]? {
    do {
        return try decoder.decode(bytes)
    } catch {
        Issue.record("decoding \(hexString(bytes)) failed: \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The error decoding `bytes` with `decoder` throws, or nil (recording an issue) when it decodes.
func decodeError(_ decoder: inout HPACKDecoder, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> HPACKError? {
    do {
        let headers = try decoder.decode(bytes)
        Issue.record("decoding \(hexString(bytes)) succeeded with \(headers)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// Whether `error` is a compression error.
func isCompression(_ error: HPACKError?) -> Bool {
    if case .compression = error?.kind { return true }
    return false
}
