// One entry of the bank list served by GET /v3/banks: D24's Cashouts docs (docs.d24.com), "Cashout Bank Codes".

/// A bank as `/v3/banks` lists it: the numeric `code` clients send as `bank_code`, and a name.
struct D24Bank: Sendable, Equatable {
    /// The value sent as `bank_code` (COMPE, Banxico, BCRA, ... national codes; 10000+ for
    /// PIX keys and cash networks).
    let code: Int
    /// The bank's display name.
    package let name: String

    /// Creates a bank entry.
    package init(_ code: Int, _ name: String) {
        self.code = code
        self.name = name
    }
}
