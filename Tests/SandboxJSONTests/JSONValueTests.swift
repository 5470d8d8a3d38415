import Testing
@testable import SandboxSupport

@Suite("JSON value")
struct JSONValueTests {
    /// JSON Schema's `integer`: any number whose value is whole, however it is written.
    @Test(arguments: [("100", 100), ("100.0", 100), ("1e2", 100), ("1E+2", 100), ("10.00e1", 100), ("-7.000", -7), ("0e-3", 0),
                      ("1500e-1", 150), ("-0", 0)])
    func aWholeNumberInAnyFormIsAnInteger(text: String, value: Int) {
        #expect(JSON.number(text).integerValue == value)
    }

    @Test(arguments: ["100.5", "1e-2", "15e-1", "1e40", "99999999999999999999", "1.", ".5", "-", "", "1e", "1e+", "--1"])
    func aFractionOrAnOverflowIsNoInteger(text: String) {
        #expect(JSON.number(text).integerValue == nil)
        #expect(JSON.string("100").integerValue == nil)
    }

    @Test func literalsBuildTheMatchingCases() {
        let null: JSON = nil
        let yes: JSON = true
        let no: JSON = false
        let integer: JSON = -42
        let text: JSON = "héllo"
        let array: JSON = [1, "a", nil, false]
        let object: JSON = ["k": 7, "nested": ["x": []]]

        #expect(null == .null)
        #expect(yes == .bool(true))
        #expect(no == .bool(false))
        #expect(integer == .number("-42"))
        #expect(text == .string("héllo"))
        #expect(array == .array([.number("1"), .string("a"), .null, .bool(false)]))
        #expect(object == .object(["k": .number("7"), "nested": .object(["x": .array([])])]))
    }

    @Test func dictionaryLiteralWithRepeatedKeyKeepsTheLastValue() {
        let object: JSON = ["a": 1, "b": 2, "a": 3]
        #expect(object == .object(["a": .number("3"), "b": .number("2")]))
    }

    @Test func integerConvenienceStoresDecimalText() {
        #expect(JSON.number(0) == .number("0"))
        #expect(JSON.number(-7) == .number("-7"))
        #expect(JSON.number(Int.max) == .number("9223372036854775807"))
        #expect(JSON.number(Int.min) == .number("-9223372036854775808"))
        let literal: JSON = 9_223_372_036_854_775_807
        #expect(literal.numberText == "9223372036854775807")
    }

    @Test func dictionaryInitializerBuildsAnObject() {
        let members: [String: JSON] = ["amount": .number("100.50"), "currency": "EUR"]
        #expect(JSON(members) == .object(members))
        #expect(JSON([:]) == .object([:]))
    }

    @Test func objectSubscriptReturnsMembersOnlyForObjects() {
        let object: JSON = ["a": 1, "b": nil]
        #expect(object["a"] == .number("1"))
        #expect(object["b"] == .null)
        #expect(object["missing"] == nil)
        #expect(JSON.array(["a"])["a"] == nil)
        #expect(JSON.string("a")["a"] == nil)
    }

    @Test func indexSubscriptIsBoundsChecked() {
        let array: JSON = [10, 20, 30]
        #expect(array[0] == .number("10"))
        #expect(array[2] == .number("30"))
        #expect(array[3] == nil)
        #expect(array[-1] == nil)
        #expect(JSON.object(["0": 1])[0] == nil)
        #expect(JSON.array([])[0] == nil)
    }

    @Test func typedAccessorsMatchOnlyTheirCase() {
        let values: [JSON] = [.null, .bool(true), .number("1.50"), .string("s"), .array([.null]), .object(["k": .null])]
        #expect(values.map(\.isNull) == [true, false, false, false, false, false])
        #expect(values.map(\.boolValue) == [nil, true, nil, nil, nil, nil])
        #expect(values.map(\.numberText) == [nil, nil, "1.50", nil, nil, nil])
        #expect(values.map(\.stringValue) == [nil, nil, nil, "s", nil, nil])
        #expect(values.map(\.arrayValue) == [nil, nil, nil, nil, [.null], nil])
        #expect(values.map(\.objectValue) == [nil, nil, nil, nil, nil, ["k": .null]])
    }

    @Test func numberEqualityIsTextual() {
        #expect(JSON.number("1.0") != JSON.number("1"))
        #expect(JSON.number("100.50") == JSON.number("100.50"))
        #expect(Set<JSON>([.number("1"), .number("1.0"), .number("1"), .string("1")]).count == 3)
    }

    @Test func valuesCanCrossConcurrencyDomains() async {
        let value: JSON = ["amount": .number("100.50"), "tags": ["a", "b"]]
        let echoed = await Task.detached { value["amount"] }.value
        #expect(echoed == .number("100.50"))
    }
}
