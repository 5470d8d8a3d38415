@testable import CashoutSandbox
import Foundation
@testable import SandboxBank
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxPersistence
import Synchronization
import TestHelpers
import Testing

/// PayoutService payouts in the journal (`--state-dir`) and in snapshots: a pending Create, a
/// staged payout, a CreateLink payout with its page, a REVERSED payout (debit and refund), one
/// with bank steps and webhook retries to come, and a recipient with its enrolled account come back
/// identical after a restart and after a GET → PUT of a snapshot into another sandbox, and go on
/// the same way.
@Suite struct PrismPersistenceTests {
    /// Notifications to a port nobody listens on: every sandbox is refused alike, and retries wait.
    static let refused = "http://127.0.0.1:9/hook"

    static func launch(_ directory: String?, compactAfter bytes: Int? = nil) throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.clockStart = VirtualTime(iso8601: "2026-01-05T09:00:00Z")
        configuration.stateDirectory = directory
        if let bytes { configuration.journalCompactionBytes = bytes }
        return try Sandbox.launch(configuration)
    }

    static func temporaryDirectory() -> String { NSTemporaryDirectory() + "prism-state-\(UUID().uuidString)" }

    static func get(_ sandbox: Sandbox, _ path: String) throws -> String {
        try TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)\(path)").bodyText
    }

    /// The payouts, by their merchant payout ids: c-1 PENDING (retries of its notifications to
    /// come), r-1 REVERSED two days after SUCCESS, quote-1 staged, link-1 awaiting its recipient,
    /// c-2 PENDING with its bank steps to come.
    static func prepare(_ sandbox: Sandbox) throws {
        var first = createRequest("c-1", minor: 1000)
        first["webhook_url"] = .string(refused)
        #expect(try sandbox.prism("Create", first).status == "PENDING")
        var reversing = createRequest("r-1", minor: 5000, holder: "REVERSE Ana")
        reversing["webhook_url"] = .string(refused)
        #expect(try sandbox.prism("Create", reversing).status == "PENDING")
        #expect(try sandbox.prism("Void", lookup("Void", merchant: "c-1")).status == "CANCELLED")
        #expect(try sandbox.prism("Create", createRequest("c-1b", minor: 1500)).status == "PENDING")
        sandbox.advance(by: .seconds(15))
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "r-1")).status == "SUCCESS")
        sandbox.advance(by: .seconds(2 * 24 * 3600))
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "r-1")).status == "REVERSED")
        #expect(try sandbox.prism("Stage", stageRequest("quote-1", minor: 2500)).status == "REQUIRES_FULFILLMENT")
        let link = try sandbox.prism("CreateLink", createLinkRequest("link-1", minor: 4000, webhook: refused))
        #expect(link.status == "REQUIRES_PAYOUT_METHOD_DATA" && link.response.headers["x-payout-link"] != nil)
        #expect(try sandbox.prism("CreateRecipient", createRecipientRequest(name: "Ana Lima")).connectorPayoutID == "rcp_000001")
        #expect(try sandbox.prism("EnrollDisburseAccount", enrollRequest(recipient: "rcp_000001")).connectorPayoutID == "pm_000001")
        var later = createRequest("c-2", minor: 700)
        later["webhook_url"] = .string(refused)
        #expect(try sandbox.prism("Create", later).status == "PENDING")
        sandbox.advance(by: .seconds(1))
        // c-1b: 1,000,000 - 15.00 (c-1 voided, r-1 refunded, quote-1 and link-1 not debited) - 7.00.
        #expect(sandbox.balance() == Money("999978.00"))
    }

    static let references = ["c-1", "c-1b", "r-1", "quote-1", "link-1", "c-2"]

    /// What a client can read back: the admin API's payouts, ledger, webhooks and clock, and each
    /// payout's record and PayoutService Get answer (bytes on the wire, and its status).
    static func state(_ sandbox: Sandbox) throws -> [String] {
        var shown = try ["/sandbox/cashouts", "/sandbox/ledger?merchant=DefaultMerchantId", "/sandbox/webhooks", "/sandbox/clock",
                         "/sandbox/prism-merchants"]
            .map { try get(sandbox, $0) }
        for reference in references {
            let answer = try sandbox.prism("Get", lookup("Get", merchant: reference))
            #expect(answer.code == 0, "\(reference): \(answer.message ?? "")")
            shown.append("\(reference): \(answer.status ?? "-") \(answer.body?.encoded() ?? [])")
            shown.append(try get(sandbox, "/sandbox/cashouts/\(answer.connectorPayoutID)"))
        }
        return shown
    }

    /// The link page's path of link-1, as the payout records it.
    static func linkPath(_ sandbox: Sandbox) throws -> String {
        let id = try sandbox.prism("Get", lookup("Get", merchant: "link-1")).connectorPayoutID
        let url = try #require(try JSON.parse(Array(get(sandbox, "/sandbox/cashouts/\(id)").utf8))["fields"]?["payout_link"]?.stringValue)
        return String(url[try #require(url.range(of: "/prism/payout-links/")).lowerBound...])
    }

    /// What happens next, the same in any sandbox holding the state: quote-1 transferred, link-1's
    /// page submitted, Creates idempotent on the ids they had, a new Create the next id, the clock
    /// run on (c-2 and the transferred ones SUCCESS, the retries made).
    static func goOn(_ sandbox: Sandbox) throws {
        let again = try sandbox.prism("Create", createRequest("c-2", minor: 99_999))
        let existing = try sandbox.prism("Get", lookup("Get", merchant: "c-2"))
        #expect(again.status == "PENDING" && again.connectorPayoutID == existing.connectorPayoutID && existing.connectorPayoutID == "1000006")
        #expect(try sandbox.prism("Transfer", lookup("Transfer", merchant: "quote-1")).status == "PENDING")
        #expect(try sandbox.prism("Transfer", lookup("Transfer", merchant: "quote-1")).code == 9)
        #expect(try sandbox.prism("Void", lookup("Void", merchant: "r-1")).code == 9)
        let submitted = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)\(try linkPath(sandbox))",
                                          headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                          body: Array("method=card&holder_name=Ana+Lima&account=4111111111111111".utf8))
        #expect(submitted.status == 200)
        #expect(try sandbox.prism("Create", createRequest("c-3", minor: 300)).connectorPayoutID == "1000007")
        // The enrolled account pays, and the next recipient and account have the next ids.
        var enrolled = createRequest("c-4", minor: 200, withMethod: false)
        enrolled["connector_payout_method_id"] = "pm_000001"
        #expect(try sandbox.prism("Create", enrolled).connectorPayoutID == "1000008")
        #expect(try sandbox.prism("CreateRecipient", createRecipientRequest(name: "Bo")).connectorPayoutID == "rcp_000002")
        #expect(try sandbox.prism("EnrollDisburseAccount", enrollRequest(recipient: "rcp_000002")).connectorPayoutID == "pm_000002")
        sandbox.advance(by: .seconds(3600))
        for reference in ["c-2", "quote-1", "link-1", "c-3", "c-4"] {
            let answer = try sandbox.prism("Get", lookup("Get", merchant: reference))
            let record = try get(sandbox, "/sandbox/cashouts/\(answer.connectorPayoutID)")
            #expect(answer.status == "SUCCESS", "\(reference) in \(sandbox.baseURL): \(record)")
        }
        // 999978.00 - 25.00 (quote-1) - 40.00 (link-1) - 3.00 (c-3) - 2.00 (c-4).
        #expect(sandbox.balance() == Money("999908.00"))
    }

    @Test func payoutsSurviveARestartFromTheStateDirectoryAndGoOn() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try Self.launch(directory)
        try Self.prepare(first)
        let before = try Self.state(first)
        first.stop()

        let second = try Self.launch(directory)
        #expect(second.journalRecovery?.problem == nil)
        #expect(try Self.state(second) == before)
        #expect(second.balance() == Money("999978.00"))
        try Self.goOn(second)
        let after = try Self.state(second)
        second.stop()

        // And what it did after the restart survives the next one.
        let third = try Self.launch(directory)
        defer { third.stop() }
        #expect(try Self.state(third) == after)
    }

    /// A journal compacted into a snapshot (its first record) restarts with the same payouts, and
    /// the staged and link payouts it holds still run their timelines once executed.
    @Test func payoutsSurviveARestartFromACompactedJournal() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try Self.launch(directory, compactAfter: 4 * 1024)
        try Self.prepare(first)
        for index in 0 ..< 30 { #expect(try first.prism("Create", createRequest("bulk-\(index)", minor: 100)).status == "PENDING") }
        let before = try Self.state(first)
        first.stop()
        let file = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/journal.log"))
        #expect(file.count > 17 && file[16] == 3, "the first record is a snapshot's")

        let second = try Self.launch(directory, compactAfter: 4 * 1024)
        defer { second.stop() }
        #expect(second.journalRecovery?.problem == nil)
        #expect(try Self.state(second) == before)
        #expect(try second.prism("Transfer", lookup("Transfer", merchant: "quote-1")).status == "PENDING")
        second.advance(by: .seconds(15))
        #expect(try second.prism("Get", lookup("Get", merchant: "quote-1")).status == "SUCCESS")
    }

    @Test func payoutsSurviveASnapshotPutIntoAnotherSandboxAndGoOnTheSameWay() throws {
        let first = try Self.launch(nil)
        defer { first.stop() }
        try Self.prepare(first)
        let saved = try TestHTTP.send(method: "GET", url: "\(first.baseURL)/sandbox/snapshot")
        #expect(saved.status == 200)

        let second = try Self.launch(nil)
        defer { second.stop() }
        #expect(try second.prism("Create", createRequest("elsewhere")).status == "PENDING")  // replaced by the restore
        let restored = try TestHTTP.send(method: "PUT", url: "\(second.baseURL)/sandbox/snapshot", body: saved.body)
        #expect(restored.status == 200)
        #expect(restored.bodyText.hasPrefix(#"{"cashouts":6,"clock":"2026-01-07T09:00:16Z","#))
        #expect(try Self.state(second) == Self.state(first))
        #expect(try TestHTTP.send(method: "GET", url: "\(second.baseURL)/sandbox/snapshot").body == saved.body)
        #expect(try second.prism("Get", lookup("Get", merchant: "elsewhere")).code == 5)

        for sandbox in [first, second] { try Self.goOn(sandbox) }
        #expect(try Self.state(second) == Self.state(first))
    }

    /// A snapshot PUT into a sandbox with a state directory is journaled: the restart has the
    /// PayoutService payouts the snapshot brought.
    @Test func aRestoredSnapshotOfPayoutsSurvivesARestart() throws {
        let source = try Self.launch(nil)
        defer { source.stop() }
        try Self.prepare(source)
        let saved = try TestHTTP.send(method: "GET", url: "\(source.baseURL)/sandbox/snapshot").body
        let expected = try Self.state(source)

        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try Self.launch(directory)
        #expect(try TestHTTP.send(method: "PUT", url: "\(first.baseURL)/sandbox/snapshot", body: saved).status == 200)
        first.bank.runDueEvents()  // the restored notifications due now go out again at once: their answers first
        let before = try Self.state(first)
        first.stop()
        let second = try Self.launch(directory)
        defer { second.stop() }
        #expect(try Self.state(second) == before)
        #expect(before == expected)
    }
}

/// While `--state-dir`'s disk is full, a PayoutService change is refused as its clients expect a
/// retryable failure: UNAVAILABLE over gRPC, `unavailable` over Connect, with the cause; a Get
/// still answers; once space returns the same Create is made (Running it, "When the disk fails").
@Suite struct PrismDiskFullTests {
    @Test func aChangeIsRefusedUnavailableWhileTheDiskIsFullAndMadeOnceSpaceReturns() throws {
        let directory = PrismPersistenceTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let full = Atomic<Bool>(false)
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        configuration.stateDirectory = directory
        configuration.journalFiles = JournalFiles { operation in operation == .write && full.load(ordering: .relaxed) ? ENOSPC : nil }
        let sandbox = try Sandbox.launch(configuration)
        defer { sandbox.stop() }
        #expect(try sandbox.prism("Create", createRequest("d-1", minor: 1000)).code == 0)
        full.store(true, ordering: .relaxed)
        let message = "the change could not be saved: write \(directory)/journal.log: No space left on device (ENOSPC); "
            + "nothing was changed, try again later"
        let refused = try sandbox.prism("Create", createRequest("d-2", minor: 1000))
        #expect(refused.code == 14 && refused.message == message && refused.response.body.isEmpty)
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        for (name, value) in defaultAuth { headers.add(name, value) }
        let connect = try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/types.PayoutService/Create", headers: headers,
                                        body: Array(#"{"merchantPayoutId":"d-2","amount":{"minorAmount":"1000","currency":"USD"},"#.utf8)
                                            + Array(#""payoutMethodData":{"card":{"cardNumber":{"value":"4111111111111111"}}}}"#.utf8))
        #expect(connect.status == 503)
        #expect(try JSON.parse(connect.body) == ["code": "unavailable", "message": .string(message)])
        #expect(try sandbox.prism("Get", lookup("Get", merchant: "d-1")).code == 0)
        #expect(sandbox.bank.payout(account: DefaultMerchant.id, reference: "d-2") == nil)
        full.store(false, ordering: .relaxed)
        #expect(try sandbox.prism("Create", createRequest("d-2", minor: 1000)).status == "PENDING")
    }
}
