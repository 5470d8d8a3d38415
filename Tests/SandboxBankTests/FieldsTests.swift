import SandboxBank
import Testing

/// Fields are packed into one buffer; what goes in comes out, in order, whatever the text.
struct FieldsTests {
    @Test func valuesComeBackInOrderAndLaterValuesReplaceEarlierOnes() {
        let long = String(repeating: "é", count: 300)  // a length of two varint bytes
        let fields = Fields([("country", "BR"), ("beneficiary_name", "Ana 💸"), ("", "empty name"), ("note", long), ("country", "MX")])
        #expect(fields.map(\.name) == ["country", "beneficiary_name", "", "note"])
        #expect(fields.map(\.value) == ["MX", "Ana 💸", "empty name", long])
        #expect(fields["note"] == long && fields[""] == "empty name" && fields["missing"] == nil)
        #expect(fields.count == 4)
    }

    @Test func settingReplacesAddsAndRemoves() {
        var fields: Fields = ["a": "1", "b": "2", "c": "3"]
        fields["b"] = "two, now longer than it was"
        fields["d"] = "4"
        fields["a"] = nil
        fields["zzz-never-there"] = nil
        #expect(fields.map { "\($0.name)=\($0.value)" } == ["b=two, now longer than it was", "c=3", "d=4"])
    }

    @Test func equalityIgnoresOrder() {
        #expect(Fields([("a", "1"), ("b", "2")]) == Fields([("b", "2"), ("a", "1")]))
        #expect(Fields([("a", "1"), ("b", "2")]) != Fields([("a", "1"), ("b", "3")]))
        #expect(Fields([("a", "1")]) != Fields([("a", "1"), ("b", "2")]))
    }

    @Test func namesPastTheNumberedOnesAreKeptAsText() {
        // More names than get numbers (in this process, whatever other tests numbered): each still
        // found, listed and compared by its text.
        let names = (0 ..< NameTable.fieldNames.capacity + 10).map { "made-up-\($0)" }
        var fields = Fields()
        for name in names.suffix(20) { fields[name] = "v-\(name)" }
        for name in names { _ = NameTable.fieldNames.number(of: name, adding: true) }
        var more = fields
        for name in names.suffix(5) { more[name + "-late"] = "late" }
        #expect(more.count == 25)
        for name in names.suffix(20) { #expect(more[name] == "v-\(name)") }
        for name in names.suffix(5) { #expect(more[name + "-late"] == "late") }
        #expect(Array(more.map(\.name).suffix(5)) == names.suffix(5).map { $0 + "-late" })
        more[names.last! + "-late"] = nil
        #expect(more.count == 24 && more[names.last! + "-late"] == nil)
    }
}
