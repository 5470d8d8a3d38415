import CashoutSandbox
@_exported import SandboxMannco

// Mannco's user cashouts in a Swift team's tests:
//
//     let sandbox = try await Sandbox.start()
//     let token = sandbox.mannco.token()                    // as POST /user/login would answer
//     // ... the client under test calls POST /cashout/process with it ...
//     await sandbox.advance(by: .seconds(15))
//     #expect(sandbox.mannco.emails().map(\.status) == ["pending", "processing", "completed"])

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
    public func user(_ id: String = defaultUserID) -> ManncoUser? {
        sandbox.bank.account(id: id).flatMap(ManncoUser.init(owned:))
    }

    /// A JWT for `user`, as `POST /user/login` answers it now (valid 31 days of virtual time).
    public func token(for user: String = defaultUserID) -> String {
        ManncoToken.issue(user: user, at: sandbox.clock.now)
    }

    /// The user's cashouts in creation order.
    public func cashouts(of user: String = defaultUserID) -> [Cashout] {
        sandbox.cashouts(merchant: user)
    }

    /// The emails sent, oldest first: to one user's cashouts, or to everyone's.
    public func emails(of user: String? = nil) -> [ManncoEmail] {
        ManncoEmail.outbox(of: sandbox.bank.payouts(account: user))
    }
}
