@testable import SandboxBank
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

/// A payout keeps its fields as a template shared with payouts alike but for their reference (a
/// D24 external_id), that value left out: every field comes back as it was, wherever the
/// reference is among them, or when it is none of them.
struct PayoutFieldsTests {
    @Test func aPayoutsFieldsComeBackAsGivenWhereverItsReferenceIs() {
        let long = String(repeating: "é", count: 100)  // a length of two varint bytes
        let cases: [(fields: Fields, reference: String?)] = [
            (Fields([("external_id", "ref-1"), ("amount", "10.00")]), "ref-1"),
            (Fields([("amount", "10.00"), ("external_id", "ref-1")]), "ref-1"),
            (Fields([("a", "ref-1"), ("b", "ref-1"), ("c", "ref-12")]), "ref-1"),
            (Fields([("a", "1"), ("note", long), ("b", "2")]), long),
            (Fields([("a", ""), ("b", "1")]), ""),
            (Fields([("a", "1")]), "none of them"),
            (Fields([("a", "1")]), nil),
            (Fields(), "ref-1"),
        ]
        for (fields, reference) in cases {
            let payout = Self.payout(reference: reference, fields: fields)
            #expect(payout.fields.map { "\($0.name)=\($0.value)" } == fields.map { "\($0.name)=\($0.value)" })
        }
    }

    @Test func aPayoutLikeAnotherButForItsReferenceKeepsItsOwn() {
        let template: [(String, String)] = [("country", "BR"), ("amount", "10.00")]
        let first = Self.payout(reference: "first", fields: Fields([("external_id", "first")] + template))
        let second = Self.payout(reference: "second", fields: Fields([("external_id", "second")] + template))
        #expect(first.fields["external_id"] == "first" && second.fields["external_id"] == "second")
        #expect(second.fields.map(\.name) == ["external_id", "country", "amount"])
    }

    /// A payout's template is compared with the one made last before one is made: payouts made
    /// one after another that differ anywhere but in their reference keep what is theirs.
    @Test func payoutsMadeInARowKeepTheirOwnFieldsWhereverTheyDifferFromTheLast() {
        let rows: [(reference: String, fields: [(String, String)])] = [
            ("r-1", [("country", "BR"), ("external_id", "r-1"), ("amount", "10.00")]),
            ("r-2", [("country", "BR"), ("external_id", "r-2"), ("amount", "10.00")]),  // the same template
            ("r-3", [("country", "BR"), ("external_id", "r-3"), ("amount", "20.00")]),  // after the reference
            ("r-4", [("country", "MX"), ("external_id", "r-4"), ("amount", "20.00")]),  // before it
            ("r-5", [("country", "MX"), ("amount", "20.00"), ("external_id", "r-5")]),  // elsewhere
            ("r-66", [("country", "MX"), ("amount", "20.00"), ("external_id", "r-66")]),  // longer
            ("MX", [("country", "MX"), ("amount", "20.00"), ("external_id", "MX")]),  // another field's value
            ("r-8", [("country", "MX"), ("amount", "20.00"), ("external_id", "r-8"), ("note", "")]),  // one more
        ]
        for row in rows {
            let payout = Self.payout(reference: row.reference, fields: Fields(row.fields))
            #expect(payout.fields.map { "\($0.name)=\($0.value)" } == row.fields.map { "\($0)=\($1)" }, "\(row.reference)")
        }
    }

    private static func payout(reference: String?, fields: Fields) -> Payout {
        Payout(id: 1_000_001, dialect: "d24", account: "acme", reference: reference, country: "BR", currency: "USD", amount: Money("1")!,
               settlementAmount: Money("1")!, fields: fields, callbackURL: nil, createdAt: VirtualTime(milliseconds: 0), status: .pending,
               history: [])
    }
}

/// A template is its fields with the reference's value emptied: told apart from other fields
/// byte for byte, wherever the reference is and however long.
struct FieldTemplateTests {
    @Test func fieldsAreTheirTemplateOnlyWhenTheyDifferInTheEmptiedValueAlone() throws {
        let long = String(repeating: "r", count: 200)  // a length of two varint bytes
        let cases: [[(String, String)]] = [
            [("external_id", "REF"), ("amount", "10.00")],
            [("amount", "10.00"), ("external_id", "REF")],
            [("external_id", "REF")],
            [("a", "1"), ("external_id", "REF"), ("b", "2")],
        ]
        for pairs in cases {
            for reference in ["REF", long, ""] {
                let fields = Fields(pairs.map { ($0.0, $0.1 == "REF" ? reference : $0.1) })
                let (place, cut) = try #require(fields.place(ofValue: reference))
                let template = fields.emptied(at: cut)
                #expect(fields.isEmptied(as: template, at: cut))
                #expect(template.filling(reference, at: place) == fields && template.filling(reference, at: place).map(\.name) == fields.map(\.name))
                // The same shape, one byte off before or after the reference: not its template.
                for (name, value) in pairs where value != "REF" {
                    var other = fields
                    other[name] = String(value.dropLast()) + "9"
                    let otherCut = try #require(other.place(ofValue: reference)).cut
                    #expect(!fields.isEmptied(as: other.emptied(at: otherCut), at: cut), "\(name)")
                }
            }
        }
    }
}
