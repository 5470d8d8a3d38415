// The tokens of a `.proto` file (Protocol Buffers language specification, "Lexical elements"):
// identifiers, integers, strings and symbols, with `//` and `/* */` comments and whitespace
// between them skipped. Floats and the escapes of strings beyond `\"`, `\'` and `\\` are not
// read: the declarations the sandbox reads (messages, enums, services) use none.

/// One token, with where it starts (1-based line and column, for error messages).
struct ProtoToken: Equatable {
    enum Kind: Equatable {
        case identifier(String)
        case integer(UInt64)
        case string(String)
        case symbol(Character)
    }

    let kind: Kind
    let line: Int
    let column: Int

    /// How an error message names it.
    var shown: String {
        switch kind {
        case .identifier(let name): "'\(name)'"
        case .integer(let value): "\(value)"
        case .string(let text): "\"\(text)\""
        case .symbol(let symbol): "'\(symbol)'"
        }
    }
}

/// Splits a `.proto` file's text into tokens.
struct ProtoLexer {
    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0

    init(_ text: String, file: String) {
        bytes = Array(text.utf8)
        self.file = file
    }

    /// Every token of the text, in order.
    static func tokens(_ text: String, file: String) throws(ProtoTextError) -> [ProtoToken] {
        var lexer = ProtoLexer(text, file: file)
        var tokens: [ProtoToken] = []
        while let token = try lexer.next() { tokens.append(token) }
        return tokens
    }

    private var column: Int { index - lineStart + 1 }

    private func error(_ message: String) -> ProtoTextError {
        ProtoTextError(file: file, line: line, column: column, message: message)
    }

    /// An error at an earlier place (where an unclosed comment or string opened): the place is
    /// kept as it is passed, and the error made only when there is one.
    private func error(_ message: String, at place: (line: Int, column: Int)) -> ProtoTextError {
        ProtoTextError(file: file, line: place.line, column: place.column, message: message)
    }

    private func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    /// The next token; nil at the end of the text.
    mutating func next() throws(ProtoTextError) -> ProtoToken? {
        try skipSpaceAndComments()
        guard let byte = peek() else { return nil }
        let (startLine, startColumn) = (line, column)
        func token(_ kind: ProtoToken.Kind) -> ProtoToken { ProtoToken(kind: kind, line: startLine, column: startColumn) }
        if Self.isLetter(byte) {
            let start = index
            while let next = peek(), Self.isLetter(next) || Self.isDigit(next) { advance() }
            return token(.identifier(String(decoding: bytes[start ..< index], as: UTF8.self)))
        }
        if Self.isDigit(byte) { return token(.integer(try integer())) }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { return token(.string(try string(quote: byte))) }
        if Self.symbols.contains(byte) {
            advance()
            return token(.symbol(Character(Unicode.Scalar(byte))))
        }
        throw error(byte < 0x80 ? "unexpected character '\(Character(Unicode.Scalar(byte)))'" : "unexpected byte \(byte) outside a string or comment")
    }

    /// Compared as bytes: a `Character`'s `asciiValue`, asked of each symbol for each token, took
    /// half the time of reading the files.
    private static let symbols: [UInt8] = Array("{}()[]<>;=,.-+".utf8)

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) }

    private mutating func skipSpaceAndComments() throws(ProtoTextError) {
        while let byte = peek() {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                advance()
            } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                while let next = peek(), next != UInt8(ascii: "\n") { advance() }
            } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                let opening = (line, column)
                advance()
                advance()
                while !(peek() == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/")) {
                    guard peek() != nil else { throw error("a comment that is never closed with */", at: opening) }
                    advance()
                }
                advance()
                advance()
            } else {
                return
            }
        }
    }

    /// A decimal, hexadecimal (`0x1F`) or octal (`017`) integer.
    private mutating func integer() throws(ProtoTextError) -> UInt64 {
        var radix: UInt64 = 10
        if peek() == UInt8(ascii: "0"), let next = peek(1), next | 0x20 == UInt8(ascii: "x") {
            radix = 16
            advance()
            advance()
        } else if peek() == UInt8(ascii: "0"), let next = peek(1), Self.isDigit(next) {
            radix = 8
            advance()
        }
        var value: UInt64 = 0
        var digits = 0
        while let byte = peek(), Self.isLetter(byte) || Self.isDigit(byte) {
            let digit: UInt64? = Self.isDigit(byte) ? UInt64(byte - UInt8(ascii: "0"))
                : (UInt8(ascii: "a") ... UInt8(ascii: "f")).contains(byte | 0x20) ? UInt64((byte | 0x20) - UInt8(ascii: "a") + 10) : nil
            guard let digit, digit < radix else { throw error("'\(Character(Unicode.Scalar(byte)))' is not a digit of a base-\(radix) integer") }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: radix)
            let (sum, overflowSum) = times.addingReportingOverflow(digit)
            guard !overflowTimes, !overflowSum else { throw error("an integer too large for 64 bits") }
            value = sum
            digits += 1
            advance()
        }
        guard digits > 0 || radix == 8 else { throw error("a hexadecimal integer without digits") }
        return value
    }

    private mutating func string(quote: UInt8) throws(ProtoTextError) -> String {
        let opening = (line, column)
        advance()
        var text: [UInt8] = []
        while let byte = peek(), byte != quote {
            guard byte != UInt8(ascii: "\n") else { throw error("a string that is never closed", at: opening) }
            if byte == UInt8(ascii: "\\") {
                advance()
                guard let escaped = peek(), escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "'") || escaped == UInt8(ascii: "\\") else {
                    throw error("an escape other than \\\", \\' or \\\\ in a string")
                }
                text.append(escaped)
            } else {
                text.append(byte)
            }
            advance()
        }
        guard peek() == quote else { throw error("a string that is never closed", at: opening) }
        advance()
        return String(decoding: text, as: UTF8.self)
    }
}
