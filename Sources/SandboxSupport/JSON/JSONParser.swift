// Strict RFC 8259 JSON parser over raw UTF-8 bytes. No Foundation, no Double: numbers are
// validated against the RFC grammar and kept as their literal text.

/// Why and where a JSON document was rejected.
///
/// `offset` is a zero-based byte offset into the input. It points at the first byte that
/// makes the document invalid, with these exceptions: "unterminated string" points at the
/// string's opening quote, escape-sequence and UTF-8 errors point at the start of the
/// offending sequence, and "unexpected end of input" points just past the last byte.
/// `line` and `column` say the same for people and editors: both start at 1, a line ends at
/// `\n`, and a column counts characters (Unicode scalars), not bytes.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Zero-based byte offset in the input where the problem was detected.
    public let offset: Int
    /// A short English explanation, for example `"trailing data after value"`.
    public let reason: String
    /// The line of `offset`, from 1.
    public let line: Int
    /// The character of `offset` in its line, from 1.
    public let column: Int

    /// Creates an error at a byte offset that is `line` and `column` in its input.
    public init(offset: Int, reason: String, line: Int, column: Int) {
        self.offset = offset
        self.reason = reason
        self.line = line
        self.column = column
    }

    /// The error at `offset` of `input`, its line and column counted there.
    init(offset: Int, reason: String, in input: UnsafeBufferPointer<UInt8>) {
        var line = 1
        var lineStart = 0
        for index in 0 ..< min(offset, input.count) where input[index] == .lineFeed {
            line += 1
            lineStart = index + 1
        }
        // A UTF-8 continuation byte (10xxxxxx) is part of the character before it.
        let characters = input[lineStart ..< min(offset, input.count)].count { $0 & 0xC0 != 0x80 }
        self.init(offset: offset, reason: reason, line: line, column: characters + 1)
    }

    /// The reason, then where: `unexpected character 'x' at line 3, column 14 (byte offset 40)`.
    public var description: String {
        "\(reason) at line \(line), column \(column) (byte offset \(offset))"
    }
}

extension JSON {
    /// Parses exactly one JSON value, with optional surrounding whitespace, from UTF-8 bytes.
    ///
    /// Strict RFC 8259: no comments, trailing commas, leading zeros, `NaN`/`Infinity`,
    /// unescaped control characters, lone surrogates, invalid UTF-8, or byte order mark.
    /// If an object repeats a key, the last occurrence wins, or with `duplicateKeys: false` the
    /// document is rejected with "duplicate key" (keys are Swift `String`s, so canonically
    /// equivalent spellings count as the same key). Containers nested deeper than
    /// `maxDepth` (default 256) are rejected with "nesting too deep", so hostile input
    /// cannot exhaust the stack.
    public static func parse(
        _ bytes: some Collection<UInt8>,
        maxDepth: Int = 256,
        duplicateKeys: Bool = true
    ) throws(JSONParseError) -> JSON {
        try withParser(over: bytes, maxDepth: maxDepth, duplicateKeys: duplicateKeys) { parser throws(JSONParseError) in
            try parser.parseDocument()
        }
    }

    /// Parses exactly one JSON value from the UTF-8 contents of `string`, with the same rules as the byte overload.
    public static func parse(
        _ string: String,
        maxDepth: Int = 256,
        duplicateKeys: Bool = true
    ) throws(JSONParseError) -> JSON {
        try parse(string.utf8, maxDepth: maxDepth, duplicateKeys: duplicateKeys)
    }

    /// What `parse` returns of a parser over `bytes`, which are copied only when they are not in
    /// one buffer already.
    static func withParser<Parsed>(
        over bytes: some Collection<UInt8>,
        maxDepth: Int,
        duplicateKeys: Bool,
        _ parse: (inout ByteParser) throws(JSONParseError) -> Parsed
    ) throws(JSONParseError) -> Parsed {
        func run(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<Parsed, JSONParseError> {
            var parser = ByteParser(bytes: buffer, maxDepth: maxDepth, duplicateKeys: duplicateKeys)
            do throws(JSONParseError) {
                return .success(try parse(&parser))
            } catch {
                return .failure(error)
            }
        }
        if let contiguous = bytes.withContiguousStorageIfAvailable(run) {
            return try contiguous.get()
        }
        return try Array(bytes).withUnsafeBufferPointer(run).get()
    }
}

// ASCII code points used by the parser and the writer.
extension UInt8 {
    @inline(__always) static var quote: UInt8 { 0x22 }
    @inline(__always) static var backslash: UInt8 { 0x5C }
    @inline(__always) static var slash: UInt8 { 0x2F }
    @inline(__always) static var comma: UInt8 { 0x2C }
    @inline(__always) static var colon: UInt8 { 0x3A }
    @inline(__always) static var openBracket: UInt8 { 0x5B }
    @inline(__always) static var closeBracket: UInt8 { 0x5D }
    @inline(__always) static var openBrace: UInt8 { 0x7B }
    @inline(__always) static var closeBrace: UInt8 { 0x7D }
    @inline(__always) static var minus: UInt8 { 0x2D }
    @inline(__always) static var plus: UInt8 { 0x2B }
    @inline(__always) static var dot: UInt8 { 0x2E }
    @inline(__always) static var digitZero: UInt8 { 0x30 }
    @inline(__always) static var digitNine: UInt8 { 0x39 }
    @inline(__always) static var space: UInt8 { 0x20 }
    @inline(__always) static var tab: UInt8 { 0x09 }
    @inline(__always) static var lineFeed: UInt8 { 0x0A }
    @inline(__always) static var carriageReturn: UInt8 { 0x0D }
}

/// Recursive-descent parser over a borrowed byte buffer; valid only inside the closure that
/// provides the buffer.
struct ByteParser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    /// Whether an object may repeat a key (the last one wins).
    let duplicateKeys: Bool
    /// Keys handed out as the strings given rather than made again (`JSON.parseMembers(_:keys:maxDepth:)`).
    var knownKeys: JSON.KnownKeys?
    var index = 0
    var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, duplicateKeys: Bool) {
        self.bytes = bytes
        self.maxDepth = maxDepth
        self.duplicateKeys = duplicateKeys
    }

    // MARK: Document and values

    mutating func parseDocument() throws(JSONParseError) -> JSON {
        skipWhitespace()
        let value = try parseValue()
        try expectEnd()
        return value
    }

    /// Nothing but whitespace after the document's value.
    mutating func expectEnd() throws(JSONParseError) {
        skipWhitespace()
        if index < bytes.count {
            throw JSONParseError(offset: index, reason: "trailing data after value", in: bytes)
        }
    }

    /// Parses the value starting at `index`; leading whitespace must already be skipped.
    mutating func parseValue() throws(JSONParseError) -> JSON {
        guard index < bytes.count else { throw endOfInput() }
        switch bytes[index] {
        case .openBrace:
            return try parseObject()
        case .openBracket:
            return try parseArray()
        case .quote:
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case .minus, .digitZero ... .digitNine:
            return .number(try parseNumber())
        default:
            throw unexpected(at: index)
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSON {
        try enterContainer()
        index += 1  // '['
        skipWhitespace()
        guard index < bytes.count else { throw endOfInput() }
        var elements: [JSON] = []
        if bytes[index] == .closeBracket {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw endOfInput() }
            switch bytes[index] {
            case .comma:
                let comma = index
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == .closeBracket {
                    throw JSONParseError(offset: comma, reason: "trailing comma in array", in: bytes)
                }
            case .closeBracket:
                index += 1
                depth -= 1
                return .array(elements)
            default:
                throw JSONParseError(offset: index, reason: "expected ',' or ']' in array", in: bytes)
            }
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSON {
        var members: [String: JSON] = [:]
        let (bytes, duplicateKeys, outermost) = (bytes, duplicateKeys, depth == 0)
        try parseMembers { key, value, keyOffset throws(JSONParseError) in
            // The outermost object (a request's body) usually has a dozen members: room for 16 at
            // once. A nested one grows to 16 at its third member: one allocation for most, not five.
            if members.isEmpty, outermost { members.reserveCapacity(16) }
            if members.updateValue(value, forKey: key) != nil, !duplicateKeys {
                throw JSONParseError(offset: keyOffset, reason: "duplicate key \"\(key)\"", in: bytes)
            }
            if members.count == 2 { members.reserveCapacity(16) }
        }
        return .object(members)
    }

    /// Parses the object whose `{` is at `index`, handing each member to `member` in order with the
    /// offset of its key.
    mutating func parseMembers(_ member: (String, JSON, Int) throws(JSONParseError) -> Void) throws(JSONParseError) {
        try enterContainer()
        index += 1  // '{'
        skipWhitespace()
        guard index < bytes.count else { throw endOfInput() }
        if bytes[index] == .closeBrace {
            index += 1
            depth -= 1
            return
        }
        while true {
            guard index < bytes.count else { throw endOfInput() }
            guard bytes[index] == .quote else {
                throw JSONParseError(offset: index, reason: "expected string key in object", in: bytes)
            }
            let keyOffset = index
            let key = try parseString(known: knownKeys)
            skipWhitespace()
            guard index < bytes.count else { throw endOfInput() }
            guard bytes[index] == .colon else {
                throw JSONParseError(offset: index, reason: "expected ':' after object key", in: bytes)
            }
            index += 1
            skipWhitespace()
            try member(key, try parseValue(), keyOffset)
            skipWhitespace()
            guard index < bytes.count else { throw endOfInput() }
            switch bytes[index] {
            case .comma:
                let comma = index
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == .closeBrace {
                    throw JSONParseError(offset: comma, reason: "trailing comma in object", in: bytes)
                }
            case .closeBrace:
                index += 1
                depth -= 1
                return
            default:
                throw JSONParseError(offset: index, reason: "expected ',' or '}' in object", in: bytes)
            }
        }
    }

    mutating func enterContainer() throws(JSONParseError) {
        guard depth < maxDepth else {
            throw JSONParseError(offset: index, reason: "nesting too deep", in: bytes)
        }
        depth += 1
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard index < bytes.count else { throw endOfInput() }
            guard bytes[index] == byte else { throw unexpected(at: index) }
            index += 1
        }
    }

    // MARK: Numbers

    /// number = [ minus ] int [ frac ] [ exp ]  (RFC 8259 section 6), returned as its text.
    mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        if bytes[index] == .minus {
            index += 1
        }
        guard index < bytes.count else { throw endOfInput() }
        let first = bytes[index]
        if first == .digitZero {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) {
                throw JSONParseError(offset: index, reason: "leading zero in number", in: bytes)
            }
        } else if isDigit(first) {
            skipDigits()
        } else {
            throw JSONParseError(offset: index, reason: "expected digit after '-'", in: bytes)
        }
        if index < bytes.count, bytes[index] == .dot {
            index += 1
            guard index < bytes.count else { throw endOfInput() }
            guard isDigit(bytes[index]) else {
                throw JSONParseError(offset: index, reason: "expected digit after decimal point", in: bytes)
            }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == .plus || bytes[index] == .minus {
                index += 1
            }
            guard index < bytes.count else { throw endOfInput() }
            guard isDigit(bytes[index]) else {
                throw JSONParseError(offset: index, reason: "expected digit in exponent", in: bytes)
            }
            skipDigits()
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< index]), as: UTF8.self)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool {
        byte &- .digitZero < 10
    }

    @inline(__always)
    mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) {
            index += 1
        }
    }

    // MARK: Strings

    /// Parses the string whose opening quote is at `index`. Unescaped runs are validated in
    /// place and copied in bulk; a scratch buffer is used only once an escape appears. A string
    /// written as one of `known`, without escapes, is that one.
    mutating func parseString(known: JSON.KnownKeys? = nil) throws(JSONParseError) -> String {
        let quote = index
        index += 1
        var runStart = index
        var scratch: [UInt8] = []
        var hasEscapes = false
        while true {
            // Fast path: printable ASCII other than '"' and '\'.
            while index < bytes.count {
                let byte = bytes[index]
                guard byte >= 0x20, byte < 0x80, byte != .quote, byte != .backslash else { break }
                index += 1
            }
            guard index < bytes.count else {
                throw JSONParseError(offset: quote, reason: "unterminated string", in: bytes)
            }
            let byte = bytes[index]
            if byte == .quote {
                let run = UnsafeBufferPointer(rebasing: bytes[runStart ..< index])
                index += 1
                if !hasEscapes {
                    return known?.key(run) ?? String(decoding: run, as: UTF8.self)
                }
                scratch.append(contentsOf: run)
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == .backslash {
                if !hasEscapes {
                    hasEscapes = true
                    scratch.reserveCapacity(index - runStart + 16)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart ..< index]))
                try parseEscape(into: &scratch, quote: quote)
                runStart = index
            } else if byte < 0x20 {
                throw JSONParseError(offset: index, reason: "unescaped control character \(hexByte(byte)) in string", in: bytes)
            } else {
                try skipUTF8Sequence(quote: quote)
            }
        }
    }

    /// Validates one multi-byte UTF-8 sequence at `index` (Unicode Table 3-7: no overlongs,
    /// no surrogates, nothing above U+10FFFF) and moves past it.
    mutating func skipUTF8Sequence(quote: Int) throws(JSONParseError) {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2 ... 0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1 ... 0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw invalidUTF8(at: index)
        }
        for position in 1 ..< length {
            guard index + position < bytes.count else {
                throw JSONParseError(offset: quote, reason: "unterminated string", in: bytes)
            }
            let continuation = bytes[index + position]
            guard continuation >= low, continuation <= high else { throw invalidUTF8(at: index) }
            low = 0x80
            high = 0xBF
        }
        index += length
    }

    /// Decodes the escape sequence whose backslash is at `index`, appending its UTF-8 bytes.
    mutating func parseEscape(into out: inout [UInt8], quote: Int) throws(JSONParseError) {
        let start = index
        guard index + 1 < bytes.count else {
            throw JSONParseError(offset: quote, reason: "unterminated string", in: bytes)
        }
        let escape = bytes[index + 1]
        index += 2
        switch escape {
        case .quote, .backslash, .slash: out.append(escape)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4(escapeStart: start, quote: quote)
            if scalar >= 0xDC00, scalar <= 0xDFFF {
                throw unpairedSurrogate(at: start)
            }
            if scalar >= 0xD800, scalar <= 0xDBFF {
                // A high surrogate must be followed directly by an escaped low surrogate.
                guard index < bytes.count else {
                    throw JSONParseError(offset: quote, reason: "unterminated string", in: bytes)
                }
                guard bytes[index] == .backslash else { throw unpairedSurrogate(at: start) }
                guard index + 1 < bytes.count else {
                    throw JSONParseError(offset: quote, reason: "unterminated string", in: bytes)
                }
                guard bytes[index + 1] == UInt8(ascii: "u") else { throw unpairedSurrogate(at: start) }
                let lowStart = index
                index += 2
                let low = try readHex4(escapeStart: lowStart, quote: quote)
                guard low >= 0xDC00, low <= 0xDFFF else { throw unpairedSurrogate(at: start) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            appendUTF8(scalar, to: &out)
        default:
            let shown = escape >= 0x21 && escape <= 0x7E
                ? "'\\\(Character(Unicode.Scalar(escape)))'"
                : "'\\' followed by \(hexByte(escape))"
            throw JSONParseError(offset: start, reason: "invalid escape sequence \(shown)", in: bytes)
        }
    }

    mutating func readHex4(escapeStart: Int, quote: Int) throws(JSONParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0 ..< 4 {
            guard index < bytes.count else {
                throw JSONParseError(offset: quote, reason: "unterminated string", in: bytes)
            }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case .digitZero ... .digitNine: digit = byte - .digitZero
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError(offset: escapeStart, reason: "invalid \\u escape", in: bytes)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0 ..< 0x80:
            out.append(UInt8(scalar))
        case 0x80 ..< 0x800:
            out.append(UInt8(0xC0 | scalar >> 6))
            out.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800 ..< 0x10000:
            out.append(UInt8(0xE0 | scalar >> 12))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(0xF0 | scalar >> 18))
            out.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: Whitespace and errors

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case .space, .lineFeed, .carriageReturn, .tab: index += 1
            default: return
            }
        }
    }

    func endOfInput() -> JSONParseError {
        JSONParseError(offset: bytes.count, reason: "unexpected end of input", in: bytes)
    }

    func unexpected(at offset: Int) -> JSONParseError {
        let byte = bytes[offset]
        if byte >= 0x21, byte <= 0x7E {
            return JSONParseError(offset: offset, reason: "unexpected character '\(Character(Unicode.Scalar(byte)))'", in: bytes)
        }
        return JSONParseError(offset: offset, reason: "unexpected byte \(hexByte(byte))", in: bytes)
    }

    func invalidUTF8(at offset: Int) -> JSONParseError {
        JSONParseError(offset: offset, reason: "invalid UTF-8 in string", in: bytes)
    }

    func unpairedSurrogate(at offset: Int) -> JSONParseError {
        JSONParseError(offset: offset, reason: "unpaired surrogate in \\u escape", in: bytes)
    }

    func hexByte(_ byte: UInt8) -> String {
        let digits: StaticString = "0123456789abcdef"
        let high = digits.utf8Start[Int(byte >> 4)]
        let low = digits.utf8Start[Int(byte & 0x0F)]
        return "0x" + String(decoding: [high, low], as: UTF8.self)
    }
}
