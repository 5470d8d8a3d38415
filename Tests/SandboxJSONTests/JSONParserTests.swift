import Testing
@testable import SandboxSupport

/// An input the parser must reject, with the exact error it must report.
struct Rejection: Sendable, CustomTestStringConvertible {
    let input: [UInt8]
    let offset: Int
    let reason: String
    /// False for inputs CPython's json deliberately accepts (lone surrogates) or cannot
    /// compare (our depth limit).
    let comparableWithPython: Bool

    init(_ text: String, _ offset: Int, _ reason: String, comparableWithPython: Bool = true) {
        self.init(bytes: Array(text.utf8), offset, reason, comparableWithPython: comparableWithPython)
    }

    init(bytes: [UInt8], _ offset: Int, _ reason: String, comparableWithPython: Bool = true) {
        input = bytes
        self.offset = offset
        self.reason = reason
        self.comparableWithPython = comparableWithPython
    }

    var testDescription: String {
        let shown = input.count > 40 ? Array(input.prefix(40)) : input
        return "\(String(decoding: shown, as: UTF8.self).debugDescription)\(input.count > 40 ? "…" : "")"
    }
}

let endOfInput = "unexpected end of input"

let rejections: [Rejection] = [
    // Structure.
    Rejection("", 0, endOfInput),
    Rejection(" \n\t\r", 4, endOfInput),
    Rejection("[", 1, endOfInput),
    Rejection("{", 1, endOfInput),
    Rejection("[1", 2, endOfInput),
    Rejection("[1,", 3, endOfInput),
    Rejection(#"{"a""#, 4, endOfInput),
    Rejection(#"{"a":"#, 5, endOfInput),
    Rejection(#"{"a":1"#, 6, endOfInput),
    Rejection(#"{"a":1,}"#, 6, "trailing comma in object"),
    Rejection("[1,]", 2, "trailing comma in array"),
    Rejection("[1 , \n]", 3, "trailing comma in array"),
    Rejection(#"{"a"}"#, 4, "expected ':' after object key"),
    Rejection(#"{"a" 1}"#, 5, "expected ':' after object key"),
    Rejection("{1:2}", 1, "expected string key in object"),
    Rejection("{,}", 1, "expected string key in object"),
    Rejection("{a:1}", 1, "expected string key in object"),
    Rejection("{'a':1}", 1, "expected string key in object"),
    Rejection(#"{"a":1,,}"#, 7, "expected string key in object"),
    Rejection(#"{"a":1 "b":2}"#, 7, "expected ',' or '}' in object"),
    Rejection(#"{"a":1]"#, 6, "expected ',' or '}' in object"),
    Rejection("[1 2]", 3, "expected ',' or ']' in array"),
    Rejection("[1}", 2, "expected ',' or ']' in array"),
    Rejection("[1 /* c */]", 3, "expected ',' or ']' in array"),
    Rejection(#"{"a":}"#, 5, "unexpected character '}'"),
    Rejection("[1,,2]", 3, "unexpected character ','"),
    Rejection("[,1]", 1, "unexpected character ','"),
    Rejection("]", 0, "unexpected character ']'"),
    Rejection("}", 0, "unexpected character '}'"),
    Rejection("1 2", 2, "trailing data after value"),
    Rejection("[] []", 3, "trailing data after value"),
    Rejection(#""a" "b""#, 4, "trailing data after value"),
    Rejection(#"{"a":1}}"#, 7, "trailing data after value"),
    Rejection("[1]]", 3, "trailing data after value"),
    Rejection("[1] // c", 4, "trailing data after value"),
    Rejection(bytes: [0x22, 0x61, 0x22, 0x00], 3, "trailing data after value"),
    Rejection("// c\n1", 0, "unexpected character '/'"),
    Rejection("/* c */ 1", 0, "unexpected character '/'"),
    Rejection("'a'", 0, "unexpected character '''"),
    Rejection("undefined", 0, "unexpected character 'u'"),
    Rejection(bytes: [0xEF, 0xBB, 0xBF, 0x31], 0, "unexpected byte 0xef"),  // byte order mark
    Rejection(bytes: [0x0C, 0x31], 0, "unexpected byte 0x0c"),  // form feed is not whitespace
    Rejection(bytes: [0x0B, 0x31], 0, "unexpected byte 0x0b"),  // nor is vertical tab
    Rejection(bytes: [0xC2, 0xA0, 0x31], 0, "unexpected byte 0xc2"),  // nor no-break space
    Rejection(bytes: [0xFF], 0, "unexpected byte 0xff"),
    // Literals.
    Rejection("tru", 3, endOfInput),
    Rejection("nul", 3, endOfInput),
    Rejection("trux", 3, "unexpected character 'x'"),
    Rejection("falsy", 4, "unexpected character 'y'"),
    Rejection("True", 0, "unexpected character 'T'"),
    Rejection("[nan]", 2, "unexpected character 'a'"),
    Rejection("nulll", 4, "trailing data after value"),
    Rejection("null1", 4, "trailing data after value"),
    Rejection("NaN", 0, "unexpected character 'N'"),
    Rejection("Infinity", 0, "unexpected character 'I'"),
    Rejection("[Infinity]", 1, "unexpected character 'I'"),
    Rejection("-Infinity", 1, "expected digit after '-'"),
    // Numbers.
    Rejection("[01]", 2, "leading zero in number"),
    Rejection("01", 1, "leading zero in number"),
    Rejection("00", 1, "leading zero in number"),
    Rejection("-01", 2, "leading zero in number"),
    Rejection("+1", 0, "unexpected character '+'"),
    Rejection(".5", 0, "unexpected character '.'"),
    Rejection("[.5]", 1, "unexpected character '.'"),
    Rejection("1.", 2, endOfInput),
    Rejection("[1.]", 3, "expected digit after decimal point"),
    Rejection("1.e5", 2, "expected digit after decimal point"),
    Rejection("-", 1, endOfInput),
    Rejection("-a", 1, "expected digit after '-'"),
    Rejection("--1", 1, "expected digit after '-'"),
    Rejection("- 1", 1, "expected digit after '-'"),
    Rejection("1e", 2, endOfInput),
    Rejection("1e+", 3, endOfInput),
    Rejection("1ex", 2, "expected digit in exponent"),
    Rejection("[1E]", 3, "expected digit in exponent"),
    Rejection("1e+-1", 3, "expected digit in exponent"),
    Rejection("0x10", 1, "trailing data after value"),
    Rejection("1_000", 1, "trailing data after value"),
    Rejection("1.5.2", 3, "trailing data after value"),
    // Strings: termination.
    Rejection(#""abc"#, 0, "unterminated string"),
    Rejection(#"["abc"#, 1, "unterminated string"),
    Rejection(#"{"a"#, 1, "unterminated string"),
    Rejection(#""abc\""#, 0, "unterminated string"),
    Rejection(#""\"#, 0, "unterminated string"),
    Rejection(#""\u12"#, 0, "unterminated string"),
    Rejection(#""\ud83d"#, 0, "unterminated string"),
    Rejection(#""\ud83d\"#, 0, "unterminated string"),
    Rejection(bytes: [0x22, 0xC3], 0, "unterminated string"),
    // Strings: raw control characters.
    Rejection(bytes: [0x22, 0x01, 0x22], 1, "unescaped control character 0x01 in string"),
    Rejection(bytes: [0x22, 0x00, 0x22], 1, "unescaped control character 0x00 in string"),
    Rejection(bytes: [0x22, 0x61, 0x09, 0x22], 2, "unescaped control character 0x09 in string"),
    Rejection("\"a\nb\"", 2, "unescaped control character 0x0a in string"),
    Rejection(bytes: [0x22, 0x1F, 0x22], 1, "unescaped control character 0x1f in string"),
    // Strings: escapes.
    Rejection(#""\x""#, 1, #"invalid escape sequence '\x'"#),
    Rejection(#""\U0041""#, 1, #"invalid escape sequence '\U'"#),
    Rejection(#""\'""#, 1, #"invalid escape sequence '\''"#),
    Rejection(bytes: [0x22, 0x5C, 0x01, 0x22], 1, #"invalid escape sequence '\' followed by 0x01"#),
    Rejection(#""\u12G4""#, 1, #"invalid \u escape"#),
    Rejection(#""a\u00""#, 2, #"invalid \u escape"#),
    Rejection(#""\ud83d\uzzzz""#, 7, #"invalid \u escape"#),
    Rejection(#""\ud800""#, 1, #"unpaired surrogate in \u escape"#, comparableWithPython: false),
    Rejection(#""\udc00""#, 1, #"unpaired surrogate in \u escape"#, comparableWithPython: false),
    Rejection(#""\ud800\u0041""#, 1, #"unpaired surrogate in \u escape"#, comparableWithPython: false),
    Rejection(#""\ud800x""#, 1, #"unpaired surrogate in \u escape"#, comparableWithPython: false),
    Rejection(#""\ud800\n""#, 1, #"unpaired surrogate in \u escape"#, comparableWithPython: false),
    Rejection(#""ab\ud800\ud800""#, 3, #"unpaired surrogate in \u escape"#, comparableWithPython: false),
    Rejection(#""\ude00\ud83d""#, 1, #"unpaired surrogate in \u escape"#, comparableWithPython: false),
    // Strings: UTF-8.
    Rejection(bytes: [0x22, 0xFF, 0x22], 1, "invalid UTF-8 in string"),
    Rejection(bytes: [0x22, 0x80, 0x22], 1, "invalid UTF-8 in string"),  // stray continuation
    Rejection(bytes: [0x22, 0xC0, 0xAF, 0x22], 1, "invalid UTF-8 in string"),  // overlong '/'
    Rejection(bytes: [0x22, 0xE0, 0x80, 0xAF, 0x22], 1, "invalid UTF-8 in string"),  // overlong
    Rejection(bytes: [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], 1, "invalid UTF-8 in string"),  // overlong
    Rejection(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], 1, "invalid UTF-8 in string"),  // encoded surrogate
    Rejection(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1, "invalid UTF-8 in string"),  // above U+10FFFF
    Rejection(bytes: [0x22, 0xF8, 0x88, 0x80, 0x80, 0x80, 0x22], 1, "invalid UTF-8 in string"),
    Rejection(bytes: [0x22, 0xC3, 0x22], 1, "invalid UTF-8 in string"),  // truncated sequence
    Rejection(bytes: [0x22, 0x61, 0xE2, 0x82, 0x22], 2, "invalid UTF-8 in string"),
    Rejection(bytes: [0x22, 0xC3, 0xA9, 0xFE, 0x22], 3, "invalid UTF-8 in string"),
    Rejection(bytes: [0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22], 3, "invalid UTF-8 in string"),  // after an escape
    // Depth.
    Rejection(String(repeating: "[", count: 257) + String(repeating: "]", count: 257), 256, "nesting too deep", comparableWithPython: false),
    Rejection(String(repeating: #"{"a":"#, count: 257) + "1" + String(repeating: "}", count: 257), 256 * 5, "nesting too deep",
              comparableWithPython: false),
]

/// Valid documents that exercise every construct; also fed to Python for accept parity.
let acceptedDocuments: [String] = [
    "null", "true", "false", "0", "-0", "1", "-0.0e-0", "100.50", "1e3", "1E+2", "1e-7", "0.000001",
    "12345678901234567890.123456789", "1e400", #""""#, #""abc""#, "[]", "{}", " \t\r\n[ ] ",
    #"{"a":1,"a":2}"#, #"["\u0000","\/","\ud83d\ude00","\uD834\uDD1E"]"#,
    #"{"":{"":[[],{}]}}"#, "[1,-2,3.5e+1,\"x\",true,false,null]",
    "\"é中😀\u{2028}\u{7F}\u{FEFF}\"",
    String(repeating: "[", count: 256) + String(repeating: "]", count: 256),
]

@Suite("JSON parser")
struct JSONParserTests {
    // MARK: Accepted values

    @Test func aRepeatedKeyKeepsTheLastValueUnlessDuplicatesAreRefused() throws {
        let text = #"{"a": 1, "b": {"c": 2, "c": 3}}"#
        #expect(try JSON.parse(text) == ["a": 1, "b": ["c": 3]])
        #expect(throws: JSONParseError(offset: 23, reason: #"duplicate key "c""#, line: 1, column: 24)) { try JSON.parse(text, duplicateKeys: false) }
        #expect(try JSON.parse(#"{"a": {"c": 1}, "b": {"c": 2}}"#, duplicateKeys: false) == ["a": ["c": 1], "b": ["c": 2]])
    }

    @Test func parsesEveryValueKind() throws {
        #expect(try JSON.parse("null") == .null)
        #expect(try JSON.parse("true") == .bool(true))
        #expect(try JSON.parse("false") == .bool(false))
        #expect(try JSON.parse("42") == .number("42"))
        #expect(try JSON.parse(#""hi""#) == .string("hi"))
        #expect(try JSON.parse("[]") == .array([]))
        #expect(try JSON.parse("{}") == .object([:]))
        let document = try JSON.parse(#" { "list" : [ 1 , "two" , null , true , { } , [ ] ] , "ok" : false } "#)
        #expect(document == .object([
            "list": .array([.number("1"), .string("two"), .null, .bool(true), .object([:]), .array([])]),
            "ok": .bool(false),
        ]))
    }

    @Test(arguments: [
        "0", "-0", "-0.0", "100.50", "1e3", "1E+2", "-12.5E-10", "0.000001", "1e400",
        "12345678901234567890.123456789", "-98765432109876543210987654321",
    ])
    func numbersKeepTheirExactText(_ text: String) throws {
        #expect(try JSON.parse(text) == .number(text))
        #expect(try JSON.parse("[\(text)]") == .array([.number(text)]))
        #expect(try JSON.parse(#"{"n":\#(text)}"#)["n"]?.numberText == text)
    }

    @Test func decodesEveryEscape() throws {
        let parsed = try JSON.parse(#""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20AC \u0000 \u001F""#)
        #expect(parsed == .string("\" \\ / \u{08} \u{0C} \n \r \t A é € \u{0} \u{1F}"))
    }

    @Test func decodesSurrogatePairs() throws {
        #expect(try JSON.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSON.parse(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(try JSON.parse(#""x\ud834\udd1ey""#) == .string("x𝄞y"))
        #expect(try JSON.parse(#""\udbff\udfff""#) == .string("\u{10FFFF}"))
    }

    @Test func mixesEscapesAndRawRuns() throws {
        #expect(try JSON.parse(#""ab\ncd\u00e9ef\\""#) == .string("ab\ncdéef\\"))
        #expect(try JSON.parse(#""\n""#) == .string("\n"))
        #expect(try JSON.parse(#""é\"中""#) == .string("é\"中"))
    }

    @Test func passesRawUTF8Through() throws {
        let text = "é ß 中文 😀 𝄞 \u{2028} \u{FEFF} \u{FFFF} \u{10FFFF} \u{7F}"
        let parsed = try JSON.parse(Array(("\"" + text + "\"").utf8))
        #expect(parsed == .string(text))
        #expect(parsed.stringValue.map { Array($0.utf8) } == Array(text.utf8))
    }

    @Test func repeatedKeysKeepTheLastValue() throws {
        #expect(try JSON.parse(#"{"a":1,"b":2,"a":{"c":3}}"#) == ["a": ["c": 3], "b": 2])
        // Keys are Swift Strings: canonically equivalent spellings are one key.
        let equivalent = try JSON.parse(#"{"\u00e9":1,"e\u0301":2}"#)
        #expect(equivalent.objectValue?.count == 1)
        #expect(equivalent["\u{E9}"] == 2)
    }

    @Test func acceptsExactlyTheDepthLimit() throws {
        let deep = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        var value = try JSON.parse(deep)
        var depth = 1
        while case .array(let elements) = value, let inner = elements.first {
            value = inner
            depth += 1
        }
        #expect(depth == 256)
        let mixed = String(repeating: #"{"a":["#, count: 128) + String(repeating: "]}", count: 128)
        #expect(try JSON.parse(mixed)["a"]?[0]?["a"]?[0]?["a"] != nil)
    }

    @Test func honoursACustomDepthLimit() throws {
        #expect(try JSON.parse("[[1]]", maxDepth: 2) == [[1]])
        #expect(throws: JSONParseError(offset: 2, reason: "nesting too deep", line: 1, column: 3)) {
            try JSON.parse("[[[1]]]", maxDepth: 2)
        }
        #expect(throws: JSONParseError(offset: 10, reason: "nesting too deep", line: 1, column: 11)) {
            try JSON.parse(#"{"a":{"b":{}}}"#, maxDepth: 2)
        }
        #expect(try JSON.parse("7", maxDepth: 0) == 7)
        #expect(throws: JSONParseError(offset: 0, reason: "nesting too deep", line: 1, column: 1)) {
            try JSON.parse("[]", maxDepth: 0)
        }
    }

    @Test func parsesNonContiguousAndSlicedInputs() throws {
        let text = #" {"k":["é",1.50,"\ud83d\ude00"]} "#
        let expected: JSON = ["k": ["é", .number("1.50"), "😀"]]
        let bytes = Array(text.utf8)
        #expect(try JSON.parse(bytes.lazy.map { $0 }) == expected)  // no contiguous storage
        #expect(try JSON.parse(bytes[1 ..< bytes.count - 1]) == expected)  // slice: offsets from its start
        #expect(try JSON.parse(text.utf8) == expected)
        #expect(try JSON.parse(Substring(text).utf8) == expected)
        #expect(throws: JSONParseError(offset: 2, reason: "trailing data after value", line: 1, column: 3)) {
            try JSON.parse(Array("1 2".utf8).lazy.map { $0 })
        }
    }

    // MARK: Rejections

    @Test(arguments: rejections)
    func rejectsWithOffsetAndReason(_ rejection: Rejection) {
        for parse in [{ try JSON.parse(rejection.input) }, { try JSON.parse(rejection.input.lazy.map { $0 }) }] as [() throws -> JSON] {
            do {
                _ = try parse()
                Issue.record("accepted")
            } catch let error as JSONParseError {
                #expect(error.offset == rejection.offset)
                #expect(error.reason == rejection.reason)
                // On one line of ASCII, the column is the offset from 1.
                if !rejection.input.contains(where: { $0 == 0x0A || $0 >= 0x80 }) {
                    #expect(error.line == 1 && error.column == rejection.offset + 1)
                }
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func errorDescriptionNamesReasonLineColumnAndOffset() {
        let error = JSONParseError(offset: 6, reason: "trailing comma in object", line: 1, column: 7)
        #expect(error.description == "trailing comma in object at line 1, column 7 (byte offset 6)")
        #expect(throws: error) { try JSON.parse(#"{"a":1,}"#) }
    }

    /// Lines end at \n (\r\n too: the \r is the line's last character); a column counts
    /// characters, so "é" and "😀" before the error count one each.
    @Test(arguments: [
        ("{\n  \"a\": 1,\n  \"b\": x\n}", 19, 3, 8, "unexpected character 'x'"),
        ("{\r\n\"a\": x}", 8, 2, 6, "unexpected character 'x'"),
        ("[\n\"é😀\", x]", 12, 2, 7, "unexpected character 'x'"),
        ("{\"a\": 1,\n\n", 10, 3, 1, "unexpected end of input"),
        ("\n\n  [1,]", 6, 3, 5, "trailing comma in array"),
    ] as [(String, Int, Int, Int, String)])
    func errorsSayTheLineAndColumn(text: String, offset: Int, line: Int, column: Int, reason: String) {
        #expect(throws: JSONParseError(offset: offset, reason: reason, line: line, column: column)) { try JSON.parse(text) }
    }

    @Test func everyTruncationOfAValidDocumentThrows() throws {
        let document = Array((#"{"amount":"100.50","n":-12.5e+3,"list":[true,false,null,{"k":"\u00e9\ud83d\ude00\n\/"}],"raw":"é😀中","e":{},"#
                              + #""a":[ ]}"#).utf8)
        _ = try JSON.parse(document)
        for length in 0 ..< document.count {
            let prefix = Array(document[..<length])
            do {
                let value = try JSON.parse(prefix)
                Issue.record("prefix of length \(length) parsed as \(value)")
            } catch {
                if error.reason == "unterminated string" {
                    #expect(error.offset < length && prefix[error.offset] == UInt8(ascii: "\""), "prefix \(length): \(error)")
                } else {
                    #expect(error.offset == length && error.reason == endOfInput, "prefix \(length)")
                }
            }
        }
    }

    @Test func mutatedDocumentsNeverCrashAndStayConsistent() throws {
        var rng = SplitMix64(seed: 0x5EED)
        let seeds = acceptedDocuments.map { Array($0.utf8) } + rejections.map(\.input)
        let noise: [UInt8] = Array(#"{}[]",:\u0123456789-+.eE"#.utf8) + [0x00, 0x0A, 0x20, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
        var accepted = 0
        for round in 0 ..< 4000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0 ... rng.below(3) {
                let position = bytes.isEmpty ? 0 : rng.below(bytes.count + 1)
                switch rng.below(3) {
                case 0 where position < bytes.count: bytes.remove(at: position)
                case 1 where position < bytes.count: bytes[position] = rng.pick(noise)
                default: bytes.insert(rng.pick(noise), at: position)
                }
            }
            if let value = try? JSON.parse(bytes) {
                accepted += 1
                let reparsed = try JSON.parse(value.serialized())
                #expect(reparsed == value, "round \(round)")
                #expect(reparsed.serialized() == value.serialized(), "round \(round)")
            }
        }
        #expect(accepted > 100)
    }

    @Test func generatedDocumentsParseToTheirValues() throws {
        var generator = DocumentGenerator(seed: 1, allowFractions: true)
        for round in 0 ..< 500 {
            let document = generator.document()
            let parsed = try JSON.parse(document.text)
            #expect(parsed == document.value, "document \(round): \(String(decoding: document.text, as: UTF8.self).debugDescription)")
        }
    }

    // MARK: Cross-check with CPython

    @Test(.enabled(if: Python.isAvailable, "needs python3 on PATH"))
    func acceptsAndRejectsLikePython() throws {
        let comparable = rejections.filter(\.comparableWithPython)
        let inputs = comparable.map(\.input) + acceptedDocuments.map { Array($0.utf8) }
        let python = try Python.run(inputs)
        for (position, input) in inputs.enumerated() {
            let ours = (try? JSON.parse(input)) != nil
            let theirs = python[position] != nil
            #expect(ours == theirs, "\(String(decoding: input, as: UTF8.self).debugDescription): ours \(ours), python \(theirs)")
        }
        #expect(python.filter { $0 == nil }.count == comparable.count)
    }
}
