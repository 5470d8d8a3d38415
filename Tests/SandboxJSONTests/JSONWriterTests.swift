import Testing
@testable import SandboxSupport

@Suite("JSON writer")
struct JSONWriterTests {
    @Test func writesCompactOutputWithSortedKeys() {
        let value: JSON = [
            "zeta": [3, "x", nil, true, ["b": 1, "a": 2]],
            "alpha": ["y": false, "x": .number("100.50")],
            "Beta": "",
            "é": "ü",
            "a b": .number("-0"),
            "e": [:],
            "l": [],
        ]
        let expected = #"{"Beta":"","a b":-0,"alpha":{"x":100.50,"y":false},"e":{},"l":[],"zeta":[3,"x",null,true,{"a":2,"b":1}],"é":"ü"}"#
        #expect(value.serialized() == Array(expected.utf8))
        #expect(value.serializedString() == expected)
    }

    @Test func writesScalars() {
        #expect(JSON.null.serializedString() == "null")
        #expect(JSON.bool(true).serializedString() == "true")
        #expect(JSON.bool(false).serializedString() == "false")
        #expect(JSON.number("12345678901234567890.123456789").serializedString() == "12345678901234567890.123456789")
        #expect(JSON.number(-7).serializedString() == "-7")
        #expect(JSON.string("").serializedString() == #""""#)
    }

    @Test func sortsKeysByUTF8BytesNotByUnicodeAwareStringOrder() {
        // U+212B ANGSTROM SIGN is canonically equivalent to U+00C5, which Swift's String
        // ordering puts before U+00D0; by UTF-8 bytes (and code points) it sorts after it.
        let value = JSON.object([
            "\u{212B}": 0, "\u{D0}": 0, "😀": 0, "～": 0, "b": 0, "B": 0, "": 0, "aa": 0, "a": 0,
        ])
        #expect(value.serializedString() == "{\"\":0,\"B\":0,\"a\":0,\"aa\":0,\"b\":0,\"\u{D0}\":0,\"\u{212B}\":0,\"～\":0,\"😀\":0}")
    }

    @Test func escapesEveryControlCharacter() {
        let controls = String(decoding: Array(0 ..< 0x20) as [UInt8], as: UTF8.self)
        let expected = #""\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
            + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f""#
        #expect(JSON.string(controls).serializedString() == expected)
        #expect(JSON.object([controls: .null]).serializedString() == "{\(expected):null}")
    }

    @Test func escapesQuoteAndBackslashButNotSlashOrDelete() {
        let value = JSON.string("a\"b\\c/d\u{7F}e")
        #expect(value.serialized() == Array(#""a\"b\\c/d"#.utf8) + [0x7F, UInt8(ascii: "e"), UInt8(ascii: "\"")])
        #expect(JSON.string("\"\\").serializedString() == #""\"\\""#)
    }

    @Test func writesNonASCIIAsRawUTF8() {
        let value = JSON.string("é😀中\u{2028}")
        #expect(value.serialized() == [
            0x22, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80, 0xE4, 0xB8, 0xAD, 0xE2, 0x80, 0xA8, 0x22,
        ])
    }

    @Test func writeAppendsToAnExistingBuffer() {
        var buffer = Array("data: ".utf8)
        JSON.array([1, "a"]).write(into: &buffer)
        JSON.null.write(into: &buffer)
        #expect(buffer == Array(#"data: [1,"a"]null"#.utf8))
    }

    @Test func prettyPrintsWithTwoSpaceIndentAndSortedKeys() {
        let value: JSON = ["f": nil, "b": ["c": "d\n"], "a": [1, [:], ["x": []]], "e": []]
        let expected = """
            {
              "a": [
                1,
                {},
                {
                  "x": []
                }
              ],
              "b": {
                "c": "d\\n"
              },
              "e": [],
              "f": null
            }
            """
        #expect(value.serializedPretty() == expected)
        #expect(JSON.number("1.50").serializedPretty() == "1.50")
        #expect(JSON.array([]).serializedPretty() == "[]")
        #expect(JSON.object([:]).serializedPretty() == "{}")
    }

    @Test(arguments: [
        "null", "true", "0", "-0", "100.50", "1E+2", #""""#, #""\u0000\n\"\\/é😀""#, "[]", "{}",
        #"{"a":[1,{"b":null}],"c":"d"}"#, #"[[[[]]],{"":{"":""}}]"#,
    ])
    func canonicalDocumentsSurviveParseAndSerializeUnchanged(_ text: String) throws {
        #expect(try JSON.parse(text).serializedString() == text)
    }

    @Test func roundTripsAVariedCorpus() throws {
        var corpus: [JSON] = [
            .null, true, false, 0, .number("-0.0e-0"), .number("12345678901234567890.123456789"),
            "", "\u{0}\u{1F}\u{7F}\"\\/", "é😀𝄞\u{10FFFF}\u{FEFF}", [], [:], [[[]]], ["": ["": ""]],
            ["amount": .number("100.50"), "currency": "EUR", "tags": ["a", nil, 1, false]],
        ]
        var generator = DocumentGenerator(seed: 7, allowFractions: true)
        for _ in 0 ..< 300 {
            corpus.append(generator.document().value)
        }
        for value in corpus {
            let bytes = value.serialized()
            #expect(try JSON.parse(bytes) == value)
            #expect(try JSON.parse(value.serializedPretty()) == value)
            #expect(try JSON.parse(bytes).serialized() == bytes)
        }
    }

    @Test(.enabled(if: Python.isAvailable, "needs python3 on PATH"))
    func matchesPythonByteForByte() throws {
        var generator = DocumentGenerator(seed: 0xC0FFEE, allowFractions: false)
        let documents = (0 ..< 300).map { _ in generator.document() }
        let python = try Python.run(documents.map(\.text))
        var compared = 0
        for (document, outcome) in zip(documents, python) {
            let shown = String(decoding: document.text, as: UTF8.self).debugDescription
            let theirs = try #require(outcome, "python rejected \(shown)")
            let ours = try JSON.parse(document.text)
            #expect(ours.serialized() == theirs.compact, "compact output differs for \(shown)")
            #expect(Array(ours.serializedPretty().utf8) == theirs.pretty, "pretty output differs for \(shown)")
            compared += 1
        }
        #expect(compared == 300)
    }
}
