import Foundation
@testable import SandboxSupport

/// Deterministic pseudo-random numbers (SplitMix64), so generated corpora are reproducible.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }
}

/// A generated value together with an independently produced, deliberately "noisy" JSON
/// text for it: random whitespace, random escape styles (short, \u upper/lower case,
/// surrogate pairs, `\/`) and occasional repeated object keys whose last value wins.
struct GeneratedDocument {
    let value: JSON
    let text: [UInt8]
}

struct DocumentGenerator {
    var rng: SplitMix64
    /// When false, numbers are integers without "-0", which Python re-emits unchanged.
    let allowFractions: Bool

    /// Characters for strings and keys. No combining marks or singleton decompositions, so
    /// distinct generated keys are never canonically equivalent Swift strings.
    static let alphabet: [Unicode.Scalar] = {
        let ascii = "abcxyzABZ019 _-'{}[]:,.\"\\/".unicodeScalars.map { $0 }
        let controls: [UInt32] = [0x00, 0x01, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1B, 0x1F, 0x7F]
        let other: [UInt32] = [
            0xE9, 0xDF, 0xF1, 0xD0, 0x416, 0x4E2D, 0x65E5, 0x20AC, 0x2028, 0x2029,
            0xFEFF, 0xFFFD, 0xFFFF, 0x1F600, 0x1D11E, 0x10FFFF,
        ]
        return ascii + (controls + other).map { Unicode.Scalar($0)! }
    }()

    init(seed: UInt64, allowFractions: Bool) {
        rng = SplitMix64(seed: seed)
        self.allowFractions = allowFractions
    }

    mutating func document() -> GeneratedDocument {
        var text: [UInt8] = []
        whitespace(into: &text)
        let value = self.value(depth: 0, into: &text)
        whitespace(into: &text)
        return GeneratedDocument(value: value, text: text)
    }

    mutating func value(depth: Int, into text: inout [UInt8]) -> JSON {
        let kind = depth == 0 ? 3 + rng.below(5) : rng.below(depth >= 5 ? 5 : 8)
        switch kind {
        case 0:
            text += Array("null".utf8)
            return .null
        case 1:
            let flag = rng.chance(50)
            text += Array((flag ? "true" : "false").utf8)
            return .bool(flag)
        case 2:
            let number = numberText()
            text += Array(number.utf8)
            return .number(number)
        case 3, 4:
            let string = randomString()
            writeNoisyString(string, into: &text)
            return .string(string)
        case 5:
            var elements: [JSON] = []
            text.append(UInt8(ascii: "["))
            whitespace(into: &text)
            for position in 0 ..< rng.below(6) {
                if position > 0 {
                    text.append(UInt8(ascii: ","))
                    whitespace(into: &text)
                }
                elements.append(value(depth: depth + 1, into: &text))
                whitespace(into: &text)
            }
            text.append(UInt8(ascii: "]"))
            return .array(elements)
        default:
            var members: [String: JSON] = [:]
            text.append(UInt8(ascii: "{"))
            whitespace(into: &text)
            var first = true
            for _ in 0 ..< rng.below(6) {
                let key = randomString()
                guard members[key] == nil else { continue }
                var emissions = rng.chance(10) ? 2 : 1  // a repeated key: the last value wins
                while emissions > 0 {
                    if !first {
                        text.append(UInt8(ascii: ","))
                        whitespace(into: &text)
                    }
                    first = false
                    writeNoisyString(key, into: &text)
                    whitespace(into: &text)
                    text.append(UInt8(ascii: ":"))
                    whitespace(into: &text)
                    members[key] = value(depth: depth + 1, into: &text)
                    whitespace(into: &text)
                    emissions -= 1
                }
            }
            text.append(UInt8(ascii: "}"))
            return .object(members)
        }
    }

    mutating func numberText() -> String {
        var text = ""
        if rng.chance(15) {
            text = "0"
        } else {
            if rng.chance(40) { text += "-" }
            text += String(1 + rng.below(9))
            for _ in 0 ..< rng.below(rng.chance(10) ? 30 : 6) {
                text += String(rng.below(10))
            }
        }
        guard allowFractions else { return text }
        if rng.chance(40) {
            text += "."
            for _ in 0 ... rng.below(8) { text += String(rng.below(10)) }
        }
        if rng.chance(25) {
            text += rng.pick(["e", "E"]) + rng.pick(["", "+", "-"])
            for _ in 0 ... rng.below(3) { text += String(rng.below(10)) }
        }
        return text
    }

    mutating func randomString() -> String {
        var string = ""
        if rng.chance(30) {
            for _ in 0 ..< rng.below(10) {
                string.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "a") + UInt8(rng.below(26))))
            }
            return string
        }
        for _ in 0 ..< rng.below(12) {
            string.unicodeScalars.append(rng.pick(Self.alphabet))
        }
        return string
    }

    mutating func whitespace(into text: inout [UInt8]) {
        guard rng.chance(40) else { return }
        for _ in 0 ... rng.below(3) {
            text.append(rng.pick([0x20, 0x09, 0x0A, 0x0D]))
        }
    }

    mutating func writeNoisyString(_ string: String, into text: inout [UInt8]) {
        text.append(UInt8(ascii: "\""))
        for scalar in string.unicodeScalars {
            let value = scalar.value
            let shortEscapes: [UInt32: String] = [
                0x22: "\\\"", 0x5C: "\\\\", 0x08: "\\b", 0x0C: "\\f", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t",
            ]
            if let short = shortEscapes[value], rng.chance(70) {
                text += Array(short.utf8)
            } else if value == 0x2F, rng.chance(50) {
                text += Array("\\/".utf8)
            } else if value < 0x20 || value == 0x22 || value == 0x5C || rng.chance(25) {
                for unit in String(scalar).utf16 {
                    text += Array("\\u".utf8) + hex4(unit)
                }
            } else {
                text += Array(String(scalar).utf8)
            }
        }
        text.append(UInt8(ascii: "\""))
    }

    mutating func hex4(_ unit: UInt16) -> [UInt8] {
        let digits = Array((rng.chance(50) ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
        return [12, 8, 4, 0].map { digits[Int(unit >> UInt16($0) & 0xF)] }
    }
}

/// Runs an independent JSON implementation (CPython's `json`) over many inputs in one process.
enum Python {
    /// What Python made of one input: nil if it rejected it, else its canonical dumps.
    struct Outcome: Equatable {
        let compact: [UInt8]
        let pretty: [UInt8]
    }

    /// Strict settings: input must be valid UTF-8 (no surrogates), NaN/Infinity are refused.
    static let script = #"""
        import json, sys
        def refuse(name):
            raise ValueError("constant " + name)
        results = []
        for line in sys.stdin:
            try:
                obj = json.loads(bytes.fromhex(line.strip()).decode("utf-8"), parse_constant=refuse)
            except (ValueError, RecursionError):
                results.append("ERR")
                continue
            compact = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            pretty = json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False)
            results.append("OK " + compact.encode("utf-8").hex() + " " + pretty.encode("utf-8").hex())
        sys.stdout.write("\n".join(results) + "\n")
        """#

    /// Whether a working `python3` is on PATH.
    static let isAvailable: Bool = (try? run([Array("[1]".utf8)]).count) == 1

    /// One outcome per input, in order; throws if python3 cannot be run or misbehaves.
    static func run(_ inputs: [[UInt8]]) throws -> [Outcome?] {
        let input = FileManager.default.temporaryDirectory
            .appendingPathComponent("sandboxjson-\(UInt64.random(in: 0 ... .max)).hex")
        let lines = inputs.map { $0.map { hexByte($0) }.joined() + "\n" }.joined()
        try Data(lines.utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        process.standardInput = try FileHandle(forReadingFrom: input)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PythonFailure.exitStatus(process.terminationStatus) }

        let results = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard results.count == inputs.count else { throw PythonFailure.lineCount(results.count) }
        return try results.map { line throws -> Outcome? in
            if line == "ERR" { return nil }
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[0] == "OK" else { throw PythonFailure.badLine(String(line)) }
            return Outcome(compact: try unhex(fields[1]), pretty: try unhex(fields[2]))
        }
    }

    enum PythonFailure: Error {
        case exitStatus(Int32)
        case lineCount(Int)
        case badLine(String)
    }

    static func hexByte(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16)
        return byte < 16 ? "0" + text : text
    }

    static func unhex(_ text: Substring) throws -> [UInt8] {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { throw PythonFailure.badLine(String(text)) }
        return try stride(from: 0, to: digits.count, by: 2).map { position in
            guard let byte = UInt8(String(decoding: digits[position ..< position + 2], as: UTF8.self), radix: 16) else {
                throw PythonFailure.badLine(String(text))
            }
            return byte
        }
    }
}

extension Array where Element == UInt8 {
    /// The UTF-8 bytes of a string, for readable test tables.
    init(utf8 string: String) {
        self = Array(string.utf8)
    }
}
