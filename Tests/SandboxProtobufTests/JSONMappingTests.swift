import Testing
@testable import SandboxSupport
@testable import SandboxWire

@Suite struct JSONMappingTests {
    let registry = Sample.registry

    @Test func writesCanonicalProto3JSON() throws {
        let json = Sample.full.json()
        #expect(json["anInt64"] == "-9000000000")
        #expect(json["aUint64"] == "18446744073709551615")
        #expect(json["anInt32"] == -1)
        #expect(json["aFixed32"] == 4_294_967_295)
        #expect(json["aBool"] == true)
        #expect(json["someBytes"] == "AAH/")
        #expect(json["aDouble"] == .number("-2.5"))
        #expect(json["aFloat"] == .number("1.5"))
        #expect(json["status"] == "SUCCESS")
        #expect(json["inner"] == ["value": "x", "minorUnits": "1050"])
        #expect(json["nickname"] == "")  // optional: present, so written
        #expect(json["count"] == 0)
        #expect(json["iban"] == "DE00")
        #expect(json["numbers"] == [3, 270, 86942, -1])
        #expect(json["levels"] == ["HIGH", 7])  // an unknown enum number stays a number
        #expect(json["aString"] == "héllo")
        #expect(registry.message("sample.Everything").json() == [:])
    }

    @Test func readsBackWhatItWrites() throws {
        let text = Sample.full.json().serialized()
        #expect(try registry.decode("sample.Everything", jsonText: text) == Sample.full)
    }

    @Test func acceptsProtoNamesNumbersAndStrings() throws {
        let message = try registry.decode("sample.Everything", jsonText: Array(#"""
            {"an_int64": 12, "aUint64": "13", "an_int32": "-7", "status": 2, "levels": ["LOW", 2],
             "some_bytes": "AAH_", "a_double": "NaN", "a_float": "-Infinity", "inner": {"minor_units": "-5"},
             "a_string": null, "nickname": null}
            """#.utf8))
        #expect(message.int("an_int64") == 12)
        #expect(message.uint("a_uint64") == 13)
        #expect(message.int("an_int32") == -7)
        #expect(message.enumName("status") == "SUCCESS")
        #expect(message.list("levels") == [.enumeration(1), .enumeration(2)])
        #expect(message.bytes("some_bytes") == [0, 1, 0xFF])
        #expect(message.message("inner")?.int("minor_units") == -5)
        #expect(!message.has("a_string") && !message.has("nickname"))
        #expect(message.json()["aDouble"] == "NaN")
        #expect(message.json()["aFloat"] == "-Infinity")
    }

    @Test func errorsNameTheFieldPath() {
        func error(_ text: String) -> String? {
            do {
                _ = try registry.decode("sample.Everything", jsonText: Array(text.utf8))
                return nil
            } catch {
                return error.description
            }
        }
        #expect(error(#"{"nope": 1}"#) == "nope: unknown field")
        #expect(error(#"{"inner": {"valu": "x"}}"#) == "inner.valu: unknown field")
        #expect(error(#"{"inner": {"value": 5}}"#) == "inner.value: expected a string")
        #expect(error(#"{"inners": [{}, {"minorUnits": "x"}]}"#) == "inners[1].minorUnits: expected a int64")
        #expect(error(#"{"anInt32": 2147483648}"#) == "anInt32: expected a int32")
        #expect(error(#"{"aUint32": -1}"#) == "aUint32: expected a uint32")
        #expect(error(#"{"anInt64": "+1"}"#) == "anInt64: expected a int64")
        #expect(error(#"{"anInt64": 1.5}"#) == "anInt64: expected a int64")
        #expect(error(#"{"status": "DONE"}"#) == "status: sample.Status has no value DONE")
        #expect(error(#"{"aBool": "true"}"#) == "aBool: expected true or false")
        #expect(error(#"{"tags": "a"}"#) == "tags: expected an array")
        #expect(error(#"{"someBytes": "!!"}"#) == "someBytes: expected base64 text")
        #expect(error(#"{"iban": "x", "card": {}}"#) == "iban: oneof method already has card")
        #expect(error(#"{"aString": "x", "a_string": "y"}"#) == "a_string: field given twice (also as aString)")
        #expect(error(#"[]"#) == "expected an object")
        #expect(error(#"{"aDouble": "inf"}"#) == "aDouble: expected a number")
        #expect(error(#"{"aDouble": "0x1p3"}"#) == "aDouble: expected a number")
        #expect(error(#"{"aFloat": 1e39}"#) == "aFloat: expected a float")
        #expect(error(#"{"aDouble": "1e3"}"#) == nil)
        #expect(error(#"{"#)?.hasPrefix("not JSON") == true)
    }

    @Test func base64AcceptsBothAlphabetsPaddedOrNot() {
        #expect(Base64.encode(Array("hi".utf8)) == "aGk=")
        #expect(Base64.encode(Array("hi".utf8), padded: false) == "aGk")
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
        for text in ["+/8=", "+/8", "-_8=", "-_8"] { #expect(Base64.decode(text) == [0xFB, 0xFF]) }
        #expect(Base64.decode("") == [])
        #expect(Base64.decode("a") == nil)
        #expect(Base64.decode("aGl=") == nil)  // leftover bits set
        #expect(Base64.decode("a*==") == nil)
        for length in 0 ..< 8 {
            let data = (0 ..< length).map { UInt8($0 * 37 & 0xFF) }
            #expect(Base64.decode(Base64.encode(data)) == data)
            #expect(Base64.decode(Base64.encode(data, padded: false)) == data)
        }
    }
}
