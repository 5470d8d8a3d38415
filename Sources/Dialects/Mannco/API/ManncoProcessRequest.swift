import SandboxSupport

/// The body of `POST /cashout/process`, its input checked in the Mannco guide's order: `amount` and
/// `method` present (not null), then `amount` a positive JSON integer of at most 2^53 cents, then
/// `method` one of `payoneer` and `tipalti`, then `email` an address when given. Unknown fields
/// are ignored.
struct ManncoProcessRequest {
    /// The least amount a cashout may have: $50.
    static let minimumAmount: Int64 = 5000
    /// The largest amount taken: 2^53 cents, the largest integer every JSON client reads exactly.
    static let maximumAmount: Int64 = 1 << 53

    let amount: Int64
    let method: ManncoMethod
    /// The payout email when it differs from the account's.
    let email: String?

    init(_ body: [String: JSON]) throws(ManncoError) {
        guard let amount = body["amount"], !amount.isNull else { throw .missing("amount") }
        guard let method = body["method"], !method.isNull else { throw .missing("method") }
        guard let text = amount.numberText, let cents = Int64(text), cents > 0, cents <= Self.maximumAmount else {
            throw .business(ManncoMessage.invalidAmount)
        }
        guard let name = method.stringValue, let known = ManncoMethod(rawValue: name) else { throw .business(ManncoMessage.invalidMethod) }
        var email: String?
        if let value = body["email"], !value.isNull, value != .string("") {
            guard let address = value.stringValue, Self.isAddress(address) else { throw .business(ManncoMessage.invalidEmail) }
            email = address
        }
        (self.amount, self.method, self.email) = (cents, known, email)
    }

    /// Something `@` something, without spaces or control characters, at most 254 bytes.
    static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && text.utf8.count <= 254
            && !text.utf8.contains { $0 <= 0x20 || $0 == 0x7F }
    }
}
