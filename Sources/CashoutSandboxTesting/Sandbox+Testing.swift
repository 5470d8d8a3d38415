@_exported import CashoutSandbox
import Foundation
@_exported import SandboxBank
@_exported import SandboxContract
@_exported import SandboxD24
@_exported import SandboxSupport

// What a Swift team's tests need from an in-process sandbox (the Testing your app guide, "In-process (Swift tests)"):
//
//     let sandbox = try await Sandbox.start(scenario: .file("scenarios/late-reversal-826.json"))
//     defer { sandbox.stop() }
//     // point the client under test at sandbox.baseURL with sandbox.defaultMerchant
//     await sandbox.advance(by: .days(2))
//     #expect(sandbox.cashout(externalID: "order-1")?.status == .rejected)
//     #expect(sandbox.webhooks(to: "order-1").count == 3)

/// Where a test's scenario comes from.
public enum ScenarioSource: Sendable {
    /// A scenario file (relative paths from the current directory).
    case file(String)
    /// A scenario's JSON text.
    case json(String)
    /// The built-in default bank only.
    case builtIn
}

/// A scenario that could not be loaded: the loader's message (file, JSON path, what was expected).
public struct ScenarioLoadError: Error, CustomStringConvertible {
    /// The loader's message: the file, the JSON path and what was expected there.
    public let description: String
}

extension Sandbox {
    /// Starts a sandbox for a test: a free port on 127.0.0.1, a manual clock (time moves only by
    /// `advance(by:)`) starting at 2026-01-05T09:00:00Z unless the scenario says otherwise, and
    /// the scenario's merchants and bank, with `seed` fixing every random choice.
    ///
    /// - Parameters:
    ///   - scenario: Where the scenario comes from: a file, JSON text, or ``CashoutSandboxTesting/ScenarioSource/builtIn`` (the default:
    ///     the built-in bank only).
    ///   - seed: The seed of every random choice; nil (the default): the scenario's own `seed`, if any.
    /// - Returns: The sandbox, listening; call `stop()` when the test is done.
    /// - Throws: ``CashoutSandboxTesting/ScenarioLoadError`` when the scenario cannot be loaded; `SocketError` when the server cannot
    ///   listen.
    public static func start(scenario: ScenarioSource = .builtIn, seed: UInt64? = nil) async throws -> Sandbox {
        var configuration = Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.seed = seed
        do throws(ScenarioError) {
            switch scenario {
            case .file(let path): configuration.scenarios = [try ScenarioLoader.load(file: path, vocabulary: configuration.scenarioVocabulary)]
            case .json(let text):
                configuration.scenarios = [try ScenarioLoader.load(Array(text.utf8), file: "scenario.json",
                                                                   vocabulary: configuration.scenarioVocabulary)]
            case .builtIn: break
            }
        } catch {
            throw ScenarioLoadError(description: "\(error)")
        }
        if let start = configuration.scenarios.first?.clockStart { configuration.clockStart = start }
        return try await start(configuration)
    }

    /// The login of the merchant every sandbox has unless a scenario replaces it: `sandbox_login`
    /// (pass `sandbox_pass`, secret `sandbox_secret`); the reads' default merchant.
    public static let defaultMerchantLogin = D24Merchant.sandboxDefault.id

    /// The merchant every sandbox has unless a scenario replaces it: `sandbox_login`,
    /// `sandbox_pass`, secret `sandbox_secret`.
    public var defaultMerchant: D24Merchant {
        d24Merchant(Self.defaultMerchantLogin) ?? D24Merchant(D24Merchant.sandboxDefault)
    }

    /// A merchant by login, with its current balance.
    ///
    /// - Parameters:
    ///   - login: The merchant's login (`sandbox_login`).
    /// - Returns: The merchant; nil when there is no D24 merchant of that login.
    public func merchant(_ login: String) -> D24Merchant? {
        d24Merchant(login)
    }

    /// Moves the virtual clock forward, running every bank step and webhook delivery due on the
    /// way, in time order (webhooks to other servers are sent for real, so this may wait on them).
    /// Returns how many ran.
    ///
    /// - Parameters:
    ///   - duration: How far to move the clock, in virtual time: `.seconds(15)`, `.hours(2)`, `.days(2)`.
    /// - Returns: How many events ran: status changes and webhook delivery attempts.
    @discardableResult
    public func advance(by duration: Duration) async -> Int {
        await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
            DispatchQueue.global().async { done.resume(returning: self.bank.advance(by: duration)) }
        }
    }

    /// Moves the clock to the next scheduled bank event and runs it; false when none is left.
    ///
    /// - Returns: True when an event ran; false when none was scheduled.
    @discardableResult
    public func advanceToNextEvent() async -> Bool {
        await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            DispatchQueue.global().async { done.resume(returning: self.bank.advanceToNextEvent() > 0) }
        }
    }

    // MARK: - Cashouts, webhooks, ledger

    /// A merchant's cashout by its `external_id` (the default merchant's unless told).
    ///
    /// - Parameters:
    ///   - externalID: The `external_id` the cashout was created with.
    ///   - merchant: The merchant's login; the default merchant's (`sandbox_login`) by default.
    /// - Returns: The cashout; nil when that merchant has none of that `external_id`.
    public func cashout(externalID: String, merchant: String = Sandbox.defaultMerchantLogin) -> Cashout? {
        bank.payout(account: merchant, reference: externalID).map { typed($0) }
    }

    /// A cashout by the `cashout_id` the API answered.
    ///
    /// - Parameters:
    ///   - id: The cashout's id: D24's `cashout_id`, Mannco's `cashoutId`, PayoutService's `connector_payout_id`.
    /// - Returns: The cashout, of any merchant and API; nil when there is none of that id.
    public func cashout(id: Int) -> Cashout? {
        bank.payout(id: id).map { typed($0) }
    }

    /// Cashouts in creation order, optionally of one merchant and in one status.
    ///
    /// - Parameters:
    ///   - merchant: The merchant's login (or another API's account id); nil (the default): every merchant's.
    ///   - status: The status to keep; nil (the default): any.
    /// - Returns: The cashouts, oldest first; empty when none match.
    public func cashouts(merchant: String? = nil, status: Cashout.Status? = nil) -> [Cashout] {
        bank.payouts(account: merchant).filter { status == nil || Cashout.Status($0.status) == status }.map { typed($0) }
    }

    /// The notifications of a cashout, one per status change, oldest first, with their delivery
    /// attempts.
    ///
    /// - Parameters:
    ///   - externalID: The cashout's `external_id`.
    ///   - merchant: The merchant's login; the default merchant's (`sandbox_login`) by default.
    /// - Returns: The webhooks; empty for an unknown cashout.
    public func webhooks(to externalID: String, merchant: String = Sandbox.defaultMerchantLogin) -> [Webhook] {
        guard let payout = bank.payout(account: merchant, reference: externalID) else { return [] }
        return webhooks(of: payout)
    }

    /// The notifications of `payout`, each as it is sent.
    func webhooks(of payout: Payout) -> [Webhook] {
        bank.notifications(payoutID: payout.id).map { Webhook($0, rendered: notification($0)) }
    }

    /// `payout` as the library shows it, with its status in its API's words.
    func typed(_ payout: Payout) -> Cashout {
        Cashout(payout, decidedBy: decidedBy(payout), apiStatus: dialects[payout.dialect]?.statusWord(payout.status))
    }

    /// A merchant's balance movements, oldest first.
    ///
    /// - Parameters:
    ///   - merchant: The merchant's login; the default merchant's (`sandbox_login`) by default.
    /// - Returns: The entries (amounts negative for debits); empty for an unknown merchant.
    public func ledger(of merchant: String = Sandbox.defaultMerchantLogin) -> [LedgerEntry] {
        bank.ledger(account: merchant)
    }

    /// A merchant's available balance.
    ///
    /// - Parameters:
    ///   - merchant: The merchant's login; the default merchant's (`sandbox_login`) by default.
    /// - Returns: The balance, in the merchant's currency; nil for an unknown merchant.
    public func balance(of merchant: String = Sandbox.defaultMerchantLogin) -> Money? {
        bank.account(id: merchant)?.balance
    }
}

extension Duration {
    /// `count` hours.
    ///
    /// - Parameters:
    ///   - count: How many hours.
    /// - Returns: `count` × 3,600 seconds.
    public static func hours(_ count: Int) -> Duration { .seconds(count * 3600) }
    /// `count` days of 24 hours.
    ///
    /// - Parameters:
    ///   - count: How many days.
    /// - Returns: `count` × 86,400 seconds.
    public static func days(_ count: Int) -> Duration { .seconds(count * 86400) }
}
