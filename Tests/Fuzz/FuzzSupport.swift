// Shared by every libFuzzer harness in Tests/Fuzz (compiled into each by .ci/fuzz; not a SwiftPM
// target). A broken property is reported with `fuzzFail`, which prints the reason and traps, so
// libFuzzer records the input as a crash artifact.

import Glibc

/// With FUZZ_SHOW set (replaying one input by hand), harnesses print what they made of it.
let fuzzShow = getenv("FUZZ_SHOW") != nil

/// Writes a line to stderr, unbuffered, so it is out before an input that hangs or crashes.
func fuzzShowLine(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// The input libFuzzer hands over, as an array (an empty input has a null pointer).
func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// FNV-1a over the input: a deterministic source of per-input choices (split points, limits)
/// that does not consume input bytes, so every seed stays a plain document.
func fuzzHash(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return hash
}

/// Reports a broken property and crashes.
func fuzzFail(_ message: String, _ input: [UInt8]) -> Never {
    let shown = String(decoding: input.prefix(512), as: UTF8.self).debugDescription
    fatalError("fuzz property violated: \(message)\ninput (\(input.count) bytes, first 512): \(shown)")
}
