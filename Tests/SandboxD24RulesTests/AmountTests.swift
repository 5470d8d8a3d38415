// Amount syntax: D24's Cashouts docs (docs.d24.com), "Cashout Creation Endpoint" ("Big Decimal, up to 2 decimals"),
// and the Behaviour and choices guide (numbers sent as strings are accepted; non-numeric strings -> 300).

@testable import SandboxD24
import Testing

@Suite("Amount")
struct AmountTests {
    static let accepted = ["10", "10.5", "10.50", "0.01", "100.00", "100.500", "007", "999999999999999.99"]
    static let refused = ["0", "0.00", "0.001", "-1", "+1", "1.234", "10.005", "1e3", "1E3", "abc", "",
                          " 10", "10 ", ".5", "10.", "1,50", "1.2.3", "0x10", "1000000000000000", "١٠"]

    @Test("Valid amounts", arguments: accepted)
    func valid(amount: String) {
        #expect(D24FieldValidator.isValidAmount(amount))
        var fields = Fixtures.brazil
        fields.amount = amount
        #expect(D24FieldValidator.firstError(in: fields) == nil)
    }

    @Test("Invalid amounts are refused at the amount's position", arguments: refused)
    func invalidAmount(amount: String) {
        #expect(!D24FieldValidator.isValidAmount(amount))
        var fields = Fixtures.brazil
        fields.amount = amount
        fields.currency = "XYZ"   // a later field's error must not win
        #expect(D24FieldValidator.firstError(in: fields) == invalid("amount: Invalid or missing Amount"))
    }

    @Test("A missing amount")
    func missing() {
        var fields = Fixtures.brazil
        fields.amount = nil
        #expect(D24FieldValidator.firstError(in: fields) == invalid("amount: Invalid or missing Amount"))
    }
}
