import CashoutSandbox
@_exported import SandboxMannco

// Mannco's user cashouts in a Swift team's tests, as D24's merchants and PayoutService's have them
// (cashouts, balances, the ledger, authenticated calls, the emails):
//
//     let sandbox = try await Sandbox.start()
//     request.setValue(sandbox.mannco.authorization(), forHTTPHeaderField: "Authorization")   // as POST /user/login would answer
//     // ... the client under test calls POST /cashout/process with it ...
//     await sandbox.advance(by: .seconds(15))
//     #expect(sandbox.mannco.emails().map(\.status) == ["pending", "processing", "completed"])
//     #expect(sandbox.mannco.ledger().map(\.kind) == [.debit])

extension Sandbox {
    /// The Mannco side of the sandbox: its users, their tokens, cashouts and emails.
    public var mannco: ManncoUsers { ManncoUsers(sandbox: self) }
}

/// Mannco's users of one sandbox, as tests read them.
public struct ManncoUsers: Sendable {
    let sandbox: Sandbox

    /// The user every sandbox has unless a scenario replaces it: id `76561198000000001`, api key
    /// `sandbox_mannco_key`.
    public static let defaultUserID = ManncoUser.sandboxDefault.id

    /// A user by id, as it is now (balance in cents, links, verification).
    ///
    /// - Parameters:
    ///   - id: The user's id; ``defaultUserID`` by default.
    /// - Returns: The user; nil when no Mannco user has that id.
    public func user(_ id: String = defaultUserID) -> ManncoUser? {
        sandbox.bank.account(id: id).flatMap(ManncoUser.init(owned:))
    }

    /// A JWT for `user`, as `POST /user/login` answers it now (valid 31 days of virtual time).
    ///
    /// - Parameters:
    ///   - user: The user's id; ``defaultUserID`` by default. Not checked: any id gets a token.
    /// - Returns: The JWT, valid for 31 days of virtual time from the clock's now.
    public func token(for user: String = defaultUserID) -> String {
        ManncoToken.issue(user: user, at: sandbox.clock.now)
    }

    /// The `Authorization` header of a call as `user`: `Bearer` and a token of ``token(for:)``.
    ///
    /// ```swift
    /// request.setValue(sandbox.mannco.authorization(), forHTTPHeaderField: "Authorization")
    /// ```
    ///
    /// - Parameters:
    ///   - user: The user's id; ``defaultUserID`` by default.
    /// - Returns: The header field's value: `Bearer ` and the token.
    public func authorization(for user: String = defaultUserID) -> String {
        "Bearer \(token(for: user))"
    }

    /// The user's cashouts in creation order; none for an id that is no Mannco user.
    ///
    /// - Parameters:
    ///   - user: The user's id; ``defaultUserID`` by default.
    /// - Returns: The cashouts, oldest first; empty when the user has none or is no Mannco user.
    public func cashouts(of user: String = defaultUserID) -> [Cashout] {
        guard self.user(user) != nil else { return [] }
        return sandbox.cashouts(merchant: user)
    }

    /// One of the user's cashouts by the `cashoutId` `POST /cashout/process` answered; nil for another user's, or none.
    ///
    /// - Parameters:
    ///   - id: The cashout's id, as `POST /cashout/process` answered it (`cashoutId`).
    ///   - user: The user's id; ``defaultUserID`` by default.
    /// - Returns: The cashout; nil when it is another user's, or there is none of that id.
    public func cashout(id: Int, of user: String = defaultUserID) -> Cashout? {
        sandbox.cashout(id: id).flatMap { $0.merchant == user && self.user(user) != nil ? $0 : nil }
    }

    /// The user's balance, as `GET /user/balance` answers it in cents (`user(_:)?.balanceCents`), in dollars:
    /// `#expect(sandbox.mannco.balance() == Money("9000.00"))`; nil for an id that is no Mannco user.
    ///
    /// - Parameters:
    ///   - user: The user's id; ``defaultUserID`` by default.
    /// - Returns: The balance in dollars (`9000.00` for 900000 cents); nil when no Mannco user has that id.
    public func balance(of user: String = defaultUserID) -> Money? {
        guard self.user(user) != nil else { return nil }
        return sandbox.balance(of: user)
    }

    /// The user's balance movements, oldest first: a debit per cashout, a refund per failure or return; none for an id
    /// that is no Mannco user.
    ///
    /// - Parameters:
    ///   - user: The user's id; ``defaultUserID`` by default.
    /// - Returns: The entries, oldest first (amounts in dollars, negative for debits); empty when no Mannco user has that id.
    public func ledger(of user: String = defaultUserID) -> [LedgerEntry] {
        guard self.user(user) != nil else { return [] }
        return sandbox.ledger(of: user)
    }

    /// The emails sent, oldest first: to one user's cashouts, or to everyone's.
    ///
    /// - Parameters:
    ///   - user: The user's id; nil (the default): every user's.
    /// - Returns: The emails, oldest first by virtual time; empty for an id that is no Mannco user.
    public func emails(of user: String? = nil) -> [ManncoEmail] {
        ManncoEmail.outbox(of: sandbox.bank.payouts(account: user))
    }
}
