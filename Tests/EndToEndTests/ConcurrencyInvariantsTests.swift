import Foundation
@testable import SandboxBank
@testable import SandboxSupport
import Synchronization
import TestHelpers
import Testing

/// What holds however requests interleave: the money, the listings and every cashout's lifecycle,
/// read by a sampler racing a load of concurrent clients; then the same state after a restart on
/// the same `--state-dir`, and after 30 days of the clock (the Running it guide, "Persistence";
/// the Clock and webhooks guide).
///
/// The binary serves on a manual clock, with a scenario that adds the merchant `small` (USD
/// 3,000.00, notifications to a closed port, so every one is retried) beside the default one and
/// scripts the built-in sink `flaky` to fail now and then; the default merchant's notifications go
/// to that sink. Clients on keep-alive connections send a seeded mix: signed creates for both
/// merchants (magic names REJECT 801/807, LATE REJECT 826, STUCK, NEVER, SLOW, KYC 105; amounts that
/// often exceed `small`'s balance, now and then the default one's), status reads, cancels, D24
/// holds and releases, forced admin outcomes, webhook redeliveries, sink scripts, clock advances,
/// and balance changes (`PUT /sandbox/merchants/{login}`, made while no other request is in flight
/// and the clock driver has run what was due, so the test knows where in the ledger each one
/// falls). Every answer must be one the API documents for that request (no 5xx). The load is a
/// number of requests per client, not a time: it goes on until the sampler has also finished a
/// few rounds while it ran, so the size of the run does not depend on the machine's speed.
///
/// Each round of the sampler checks its reads against the reads before and after them:
/// - no balance is negative, and each merchant's balance is one its ledger passed through between
///   the two ledger reads around it: the starting balance (or the one last set) minus debits plus
///   refunds, exactly; the ledger only grows, and each `balance_after` follows from the last;
/// - exactly one debit per cashout, of its settlement amount; at most one refund, of the same
///   amount, after it, and only for a REJECTED or CANCELLED cashout (and every such cashout has one);
/// - no cashout is listed twice, a status's list holds only that status, and a cashout seen in one
///   status and later in another moved forward along the lifecycle; every create answered 200 is listed;
/// - a cashout's status is the last step of its history, each step is a change the lifecycle
///   allows, and its notifications are its status changes, in order, with consistent attempts.
///
/// After the load the same checks hold exactly on the quiet state (the status lists partition the
/// list, each balance is its ledger's last, `GET /sandbox/webhooks` is the cashout pages'
/// notifications), the journal was compacted at least once, and the full admin state (every cashout
/// with history, schedule and notifications; the ledger; merchants; the webhook journal with every
/// attempt; the clock) is exactly the same after SIGTERM (exit 0) and a start on the same folder.
/// 30 days later the money and lifecycle checks hold again, and no notification is still pending.
@Suite struct ConcurrencyInvariantsTests {
    static let clients = 6
    static let requestsPerClient = 60
    /// Rounds of the sampler that must finish while the load runs.
    static let samplesDuringLoad = 3
    /// Small, so the journal is rewritten as a snapshot several times while the load runs.
    static let compactAfter = 16 * 1024

    @Test(.timeLimit(.minutes(Waiting.testMinutes)))
    func moneyListingsAndLifecyclesHoldUnderLoadAndARestartKeepsTheStateExactly() throws {
        let folder = NSTemporaryDirectory() + "invariants-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/state", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.scenario.write(toFile: folder + "/scenario.json", atomically: true, encoding: .utf8)
        let arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--clock", "manual", "--log-format", "off",
                         "--state-dir", folder + "/state", "--compact-after", String(Self.compactAfter), "--scenario", folder + "/scenario.json"]
        let first = try RunningBinary(arguments)
        let port = try #require(first.url.flatMap { $0.split(separator: ":").last }.flatMap { Int($0) })
        let sinkURL = "http://127.0.0.1:\(port)/sandbox/sink/flaky"
        let admin = APIClient(port: port)
        #expect(try admin.call("PUT", "/sandbox/merchants/sandbox_login", #"{"notification_url":"\#(sinkURL)"}"#).status == 200)

        // The load and the sampler racing it.
        let run = LoadRun(port: port, sinkURL: sinkURL)
        let clientsDone = DispatchGroup()
        var seeds = SplitMix64(seed: 1)
        for index in 0 ..< Self.clients {
            let seed = seeds.next()
            clientsDone.enter()
            Thread.detachNewThread {
                run.load(index: index, seed: seed)
                clientsDone.leave()
            }
        }
        let samplerDone = DispatchGroup()
        samplerDone.enter()
        Thread.detachNewThread {
            run.sampleUntilTheLoadEnds()
            samplerDone.leave()
        }
        clientsDone.wait()  // each request waits at most Waiting.limit for its answer
        run.loadEnded.store(true, ordering: .releasing)
        samplerDone.wait()
        let shared = run.shared.withLock { $0 }
        #expect(shared.problems.isEmpty, "under load: \(shared.problems.count) problems:\n\(shared.problems.prefix(15).joined(separator: "\n"))")
        guard shared.problems.isEmpty else { return }
        // The load did what it is for: samples raced it, and it made cashouts and balance changes (far fewer than the seeded mix makes).
        #expect(shared.samples >= Self.samplesDuringLoad)
        #expect(shared.created.count > 50, "only \(shared.created.count) creates answered 200: \(shared.answers)")
        #expect(shared.sets.count > 0, "no balance was changed during the load")

        // The quiet state, exactly.
        let before = try AdminState.read(port: port)
        var problems: [String] = []
        Checks.quiet(before, sets: shared.sets, answered: shared.created, problems: &problems)
        #expect(problems.isEmpty, "after the load:\n\(problems.prefix(15).joined(separator: "\n"))")
        let metrics = try admin.call("GET", "/sandbox/metrics").body.stringValue ?? ""
        let compactions = metrics.split(separator: "\n").first { $0.hasPrefix("cashout_sandbox_journal_compactions_total ") }
            .flatMap { $0.split(separator: " ").last }.flatMap { Int($0) }
        #expect((compactions ?? 0) > 0, "the journal was never compacted (--compact-after \(Self.compactAfter))")

        // SIGTERM, then the same folder: the same state.
        #expect(first.terminate() == 0)
        let second = try RunningBinary(arguments)
        let port2 = try #require(second.url.flatMap { $0.split(separator: ":").last }.flatMap { Int($0) })
        let after = try AdminState.read(port: port2)
        let differences = Checks.differences(before.json, after.json, "state")
        #expect(differences.isEmpty, "after the restart:\n\(differences.joined(separator: "\n"))")

        // 30 days later every retry and bank step has run: the money and the lifecycles still hold,
        // and no notification is still pending.
        let client = APIClient(port: port2)
        let advanced = try client.call("POST", "/sandbox/clock/advance", #"{"by":"30d"}"#)
        #expect(advanced.status == 200, "advance 30d: \(advanced.body)")
        let cashouts = try client.get("/sandbox/cashouts").list("cashouts")
        let ledger = try client.get("/sandbox/ledger").list("entries")
        let merchants = try client.get("/sandbox/merchants").list("merchants")
        let webhooks = try client.get("/sandbox/webhooks").list("webhooks")
        problems = []
        Checks.listing([(cashouts, "the list after 30 days")], problems: &problems)
        Checks.money(ledgerBefore: ledger, merchants: merchants, ledgerAfter: ledger, cashoutsBefore: cashouts, cashoutsAfter: cashouts,
                     sets: shared.sets, exact: true, problems: &problems)
        Checks.historiesFromWebhooks(cashouts: cashouts, webhooks: webhooks, problems: &problems)
        if let pending = webhooks.first(where: { $0.text("state") == "pending" }) {
            problems.append("webhook \(pending["id"] ?? .null) still pending 30 days later (next attempt \(pending["next_attempt_at"] ?? .null))")
        }
        #expect(problems.isEmpty, "after the restart and 30 days:\n\(problems.prefix(15).joined(separator: "\n"))")
        #expect(second.terminate() == 0)
    }

    static let refusedURL = "http://127.0.0.1:9/refused"  // nothing listens on the discard port: every attempt is a connection error
    static let scenario = #"""
        {"name": "concurrency invariants",
         "merchants": [{"login": "small", "pass": "small_pass", "secret": "small_secret", "balance": {"USD": "3000.00"},
                        "notification_url": "\#(refusedURL)"}],
         "webhooks": {"sinks": {"flaky": {"answers": [500, 503, 200, 500, 200, 502, 500, 500, 200]}}}}
        """#
}

/// A merchant of the run: its credentials and the balance it starts with.
private struct Merchant: Sendable {
    let login, pass, secret: String
    let start: Money

    static let all = [Merchant(login: "sandbox_login", pass: "sandbox_pass", secret: "sandbox_secret", start: Money("1000000.00")!),
                      Merchant(login: "small", pass: "small_pass", secret: "small_secret", start: Money("3000.00")!)]
    static let byLogin = Dictionary(uniqueKeysWithValues: all.map { ($0.login, $0) })
}

/// A create answered 200.
private struct Created: Sendable {
    let id: Int
    let merchant: String
    let externalID: String
}

/// A balance set with `PUT /sandbox/merchants/{login}`, after `position` of the merchant's ledger entries.
private struct BalanceSet: Sendable {
    let merchant: String
    let position: Int
    let balance: Money
}

/// The lifecycle by the admin API's names, as `Sources/SandboxBank/Payouts/PayoutStatus.swift` allows it (a
/// return after COMPLETED shows as REJECTED).
private enum Lifecycle {
    static let next: [String: Set<String>] = [
        "PENDING": ["ON_HOLD", "DELIVERED", "REJECTED", "CANCELLED"], "ON_HOLD": ["PENDING", "CANCELLED"],
        "DELIVERED": ["COMPLETED", "REJECTED"], "COMPLETED": ["REJECTED"], "REJECTED": [], "CANCELLED": [],
    ]
    static let statuses = ["PENDING", "ON_HOLD", "DELIVERED", "COMPLETED", "REJECTED", "CANCELLED"]
    static let refunded: Set<String> = ["REJECTED", "CANCELLED"]
    /// Each status and every status it can be in later (itself included).
    static let reach: [String: Set<String>] = Dictionary(uniqueKeysWithValues: next.keys.map { start in
        var seen: Set<String> = [start]
        var todo = [start]
        while let status = todo.popLast() {
            for following in next[status] ?? [] where seen.insert(following).inserted { todo.append(following) }
        }
        return (start, seen)
    })
}

/// Load requests share it; a balance change takes it alone, so that no other change is in flight.
private final class Gate: @unchecked Sendable {
    // `readers` and `writer` are read and written only with `condition` locked.
    private let condition = NSCondition()
    private var readers = 0
    private var writer = false

    func shared<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        condition.lock()
        while writer { condition.wait() }
        readers += 1
        condition.unlock()
        defer {
            condition.lock()
            readers -= 1
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    func exclusive<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        condition.lock()
        while writer { condition.wait() }
        writer = true
        while readers > 0 { condition.wait() }
        condition.unlock()
        defer {
            condition.lock()
            writer = false
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}

/// What the load's clients and the sampler share.
private final class LoadRun: Sendable {
    struct Shared {
        var created: [Created] = []
        var sets: [BalanceSet] = []
        /// How many of each (kind, answer).
        var answers: [String: Int] = [:]
        var problems: [String] = []
        var samples = 0
    }

    enum Kind: String, CaseIterable {
        case create, status, cancel, d24Hold, adminAction, advance, balance, sinkScript, redeliver

        var weight: Int {
            switch self {
            case .create: 40
            case .status: 14
            case .cancel: 7
            case .d24Hold: 5
            case .adminAction: 16
            case .advance: 6
            case .balance: 2
            case .sinkScript: 2
            case .redeliver: 3
            }
        }

        /// What it may answer: the HTTP status, or the status and D24's `code`.
        var allowed: Set<String> {
            switch self {
            case .create: ["200", "412/514", "400/504"]
            case .status, .advance, .balance: ["200"]
            case .cancel, .d24Hold: ["200", "412/510"]
            case .adminAction: ["200", "409"]
            case .sinkScript: ["204"]
            case .redeliver: ["200", "404", "409"]
            }
        }

        /// Whether it needs a cashout created before.
        var needsACashout: Bool { [.status, .cancel, .d24Hold, .adminAction].contains(self) }
    }

    static let names = Array(repeating: "Ana", count: 6) + ["REJECT 801", "REJECT 807", "LATE REJECT 826", "STUCK", "NEVER", "SLOW", "KYC 105"]

    let port: Int
    let sinkURL: String
    let gate = Gate()
    let shared = Mutex(Shared())
    /// Set by the first problem: every client stops.
    let stopped = Atomic<Bool>(false)
    let loadEnded = Atomic<Bool>(false)

    init(port: Int, sinkURL: String) {
        self.port = port
        self.sinkURL = sinkURL
    }

    func fail(_ problem: String) {
        shared.withLock { $0.problems.append(problem) }
        stopped.store(true, ordering: .releasing)
    }

    /// One client: its requests, then more until the sampler has finished its rounds during the load.
    func load(index: Int, seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let client = APIClient(port: port)
        var count = 0
        while !stopped.load(ordering: .acquiring) {
            if count >= ConcurrencyInvariantsTests.requestsPerClient
                && shared.withLock({ $0.samples }) >= ConcurrencyInvariantsTests.samplesDuringLoad { return }
            count += 1
            let picked = Self.pick(&rng)
            do {
                let (kind, answer) = try request(picked, client: client, rng: &rng, name: "c\(index)-\(count)")
                shared.withLock { $0.answers["\(kind.rawValue) \(answer)", default: 0] += 1 }
                if !kind.allowed.contains(answer) { fail("\(kind.rawValue): unexpected answer \(answer)") }
            } catch {
                fail("\(picked.rawValue): \(error)")
            }
        }
    }

    private static func pick(_ rng: inout SplitMix64) -> Kind {
        var roll = Int.random(in: 0 ..< Kind.allCases.map(\.weight).reduce(0, +), using: &rng)
        for kind in Kind.allCases {
            if roll < kind.weight { return kind }
            roll -= kind.weight
        }
        return .create
    }

    /// Sends one request of `kind` (a create when it needs a cashout and there is none yet); the
    /// kind sent and its answer's key.
    private func request(_ kind: Kind, client: APIClient, rng: inout SplitMix64, name: String) throws(APIClient.Failure) -> (Kind, String) {
        let known = shared.withLock { $0.created.isEmpty ? nil : $0.created[Int.random(in: 0 ..< $0.created.count, using: &rng)] }
        let kind = kind.needsACashout && known == nil ? Kind.create : kind
        let sent: (status: Int, body: JSON)
        if kind == .balance {
            let merchant = Merchant.all.randomElement(using: &rng)!
            let value = merchant.login == "small" ? Int.random(in: 200 ... 6000, using: &rng) : Int.random(in: 500_000 ... 1_500_000, using: &rng)
            let balance = Money(hundredths: Int64(value) * 100)
            sent = try gate.exclusive { () throws(APIClient.Failure) in
                // What an advance deferred and the clock driver runs after it answered (a create's step
                // made due by the advance) may still be running: an advance of 0s waits for it, and runs what is due.
                _ = try client.call("POST", "/sandbox/clock/advance", #"{"by":"0s"}"#)
                let entries = try client.get("/sandbox/ledger?merchant=\(merchant.login)").list("entries").count
                shared.withLock { $0.sets.append(BalanceSet(merchant: merchant.login, position: entries, balance: balance)) }
                return try client.call("PUT", "/sandbox/merchants/\(merchant.login)", #"{"balance":"\#(balance)"}"#)
            }
            if sent.status == 200, sent.body["balance"]?.money != balance {
                fail("PUT /sandbox/merchants/\(merchant.login) balance \(balance) answered balance \(sent.body["balance"] ?? .null)")
            }
        } else {
            sent = try gate.shared { () throws(APIClient.Failure) in try send(kind, known: known, client: client, rng: &rng, name: name) }
        }
        let code = sent.body["code"]?.int.map(String.init) ?? "?"
        if sent.status == 412 || (kind == .create && sent.status == 400) { return (kind, "\(sent.status)/\(code)") }
        return (kind, String(sent.status))
    }

    private func send(_ kind: Kind, known: Created?, client: APIClient, rng: inout SplitMix64, name: String)
        throws(APIClient.Failure) -> (status: Int, body: JSON) {
        func d24(_ method: String, _ path: String, _ cashout: Created, _ fields: [String: JSON])
            throws(APIClient.Failure) -> (status: Int, body: JSON) {
            let merchant = Merchant.byLogin[cashout.merchant]!
            let body = JSON(fields.merging(["login": .string(merchant.login), "pass": .string(merchant.pass),
                                            "external_id": .string(cashout.externalID)]) { $1 })
            return try client.call(method, path, body.serializedString(), signedWith: merchant.secret)
        }
        switch kind {
        case .create:
            let merchant = rng.next() % 100 < 35 ? Merchant.byLogin["small"]! : Merchant.byLogin["sandbox_login"]!
            let cents = String(format: "%02d", Int.random(in: 0 ... 99, using: &rng))
            let (currency, amount): (String, String) = if merchant.login == "small" {
                ("USD", "\(Int.random(in: 50 ... 900, using: &rng)).\(cents)")
            } else if rng.next() % 100 < 2 {
                ("USD", "300000.00")  // a few of these exhaust the default merchant's balance for a while
            } else {
                ("BRL", "\(Int.random(in: 10 ... 500, using: &rng)).\(cents)")
            }
            let roll = rng.next() % 100
            let notificationURL = roll < 15 ? ConcurrencyInvariantsTests.refusedURL : roll < 30 ? sinkURL : nil
            let body = SignedCreate.body(externalID: name, notificationURL: notificationURL, login: merchant.login, pass: merchant.pass,
                                         currency: currency, amount: amount, name: Self.names.randomElement(using: &rng)!)
            let answer = try client.call("POST", "/v3/cashout", body, signedWith: merchant.secret)
            if answer.status == 200 {
                guard let id = answer.body["cashout_id"]?.int else { throw .init(description: "create answered \(answer.body)") }
                shared.withLock { $0.created.append(Created(id: id, merchant: merchant.login, externalID: name)) }
            }
            return answer
        case .status:
            let answer = try d24("POST", "/v3/cashout/status", known!, [:])
            if answer.status == 200, !(0 ..< 6).contains(answer.body["cashout_status"]?.int ?? -1) {
                fail("status of \(known!.id): \(answer.body)")
            }
            return answer
        case .cancel:
            return try d24("DELETE", "/v3/cashout/cancel", known!, ["cashout_id": .number(known!.id)])
        case .d24Hold:
            return try d24("PUT", "/v3/cashout/status", known!, ["status": .string(["ON_HOLD", "PENDING"].randomElement(using: &rng)!)])
        case .adminAction:
            let action = ["deliver", "complete", "reject", "reject", "hold", "release", "cancel"].randomElement(using: &rng)!
            var body: [String: JSON] = ["action": .string(action)]
            if action == "reject", rng.next() % 2 == 0 { body["rejection_code"] = .number([801, 805, 826].randomElement(using: &rng)!) }
            return try client.call("POST", "/sandbox/cashouts/\(known!.id)/actions", JSON(body).serializedString())
        case .advance:
            let by = ["3s", "7s", "7s", "20s", "5m", "30m", "2h"].randomElement(using: &rng)!
            return try client.call("POST", "/sandbox/clock/advance", #"{"by":"\#(by)"}"#)
        case .sinkScript:
            let answers = (0 ..< 6).map { _ in [200, 500, 503].randomElement(using: &rng)! }
            return try client.call("PUT", "/sandbox/sink/flaky", #"{"answers":\#(answers)}"#)
        case .redeliver:
            let top = 2 * shared.withLock { $0.created.count } + 2
            return try client.call("POST", "/sandbox/webhooks/\(Int.random(in: 1 ... top, using: &rng))/redeliver")
        case .balance:
            preconditionFailure("sent under the exclusive gate")
        }
    }

    /// Rounds of racing reads, each checked against the reads around it, until the load ends.
    func sampleUntilTheLoadEnds() {
        var rng = SplitMix64(seed: 7)
        let client = APIClient(port: port)
        while !loadEnded.load(ordering: .acquiring) && !stopped.load(ordering: .acquiring) {
            var problems: [String] = []
            do {
                try sample(client: client, rng: &rng, problems: &problems)
            } catch {
                problems.append("sampler: \(error)")
            }
            let round = shared.withLock { $0.samples += 1; return $0.samples }
            for problem in problems { fail("sample \(round): \(problem)") }
        }
    }

    private func sample(client: APIClient, rng: inout SplitMix64, problems: inout [String]) throws(APIClient.Failure) {
        let answered = shared.withLock { $0.created }
        let ledgerBefore = try client.get("/sandbox/ledger").list("entries")
        let cashoutsBefore = try client.get("/sandbox/cashouts").list("cashouts")
        var observations = [(cashoutsBefore, "the list")]
        var statuses = Lifecycle.statuses
        statuses.shuffle(using: &rng)
        for status in statuses.prefix(2) {
            let listed = try client.get("/sandbox/cashouts?status=\(status)").list("cashouts")
            observations.append((listed, "the \(status) list"))
            for cashout in listed where cashout.text("status") != status {
                problems.append("cashout \(cashout["cashout_id"] ?? .null) is \(cashout.text("status")) in the \(status) list")
            }
        }
        let merchants = try client.get("/sandbox/merchants").list("merchants")
        let ledgerAfter = try client.get("/sandbox/ledger").list("entries")
        let sets = shared.withLock { $0.sets }
        let cashoutsAfter = try client.get("/sandbox/cashouts").list("cashouts")
        observations.append((cashoutsAfter, "the next list"))
        Checks.listing(observations, problems: &problems)
        Checks.money(ledgerBefore: ledgerBefore, merchants: merchants, ledgerAfter: ledgerAfter, cashoutsBefore: cashoutsBefore,
                     cashoutsAfter: cashoutsAfter, sets: sets, exact: false, problems: &problems)
        Checks.answeredAreListed(answered, in: cashoutsBefore, problems: &problems)
        var picked = cashoutsAfter
        picked.shuffle(using: &rng)
        for cashout in picked.prefix(6) {
            Checks.detail(try client.get("/sandbox/cashouts/\(cashout["cashout_id"]?.int ?? 0)"), quiet: false, problems: &problems)
        }
    }
}

/// The full admin state, read while nothing else runs.
private struct AdminState {
    let json: JSON

    var cashouts: [JSON] { json.list("cashouts") }
    var details: [JSON] { json.list("details") }

    static func read(port: Int) throws(APIClient.Failure) -> AdminState {
        let client = APIClient(port: port)
        let cashouts = try client.get("/sandbox/cashouts").list("cashouts")
        var details: [JSON] = []
        for cashout in cashouts { details.append(try client.get("/sandbox/cashouts/\(cashout["cashout_id"]?.int ?? 0)")) }
        var byStatus: [String: JSON] = [:]
        for status in Lifecycle.statuses {
            byStatus[status] = .array(try client.get("/sandbox/cashouts?status=\(status)").list("cashouts").map { $0["cashout_id"] ?? .null })
        }
        let clock = try client.get("/sandbox/clock")
        let merchants = try client.get("/sandbox/merchants").list("merchants")
        let ledger = try client.get("/sandbox/ledger").list("entries")
        let webhooks = try client.get("/sandbox/webhooks").list("webhooks")
        return AdminState(json: ["clock": clock, "merchants": .array(merchants), "by_status": .object(byStatus), "ledger": .array(ledger),
                                 "webhooks": .array(webhooks), "cashouts": .array(cashouts), "details": .array(details)])
    }
}

/// The invariants, each adding what breaks it to `problems`.
private enum Checks {
    /// The exact checks of a sample, on a state read while nothing ran.
    static func quiet(_ state: AdminState, sets: [BalanceSet], answered: [Created], problems: inout [String]) {
        let cashouts = state.cashouts
        listing([(cashouts, "the list")], problems: &problems)
        for status in Lifecycle.statuses {
            let ids = state.json["by_status"]?[status]?.arrayValue?.compactMap(\.int) ?? []
            let expected = cashouts.filter { $0.text("status") == status }.compactMap { $0["cashout_id"]?.int }
            if ids != expected { problems.append("the \(status) list has \(ids.count) cashouts, the list \(expected.count) in that status") }
        }
        let ledger = state.json.list("ledger")
        money(ledgerBefore: ledger, merchants: state.json.list("merchants"), ledgerAfter: ledger, cashoutsBefore: cashouts, cashoutsAfter: cashouts,
              sets: sets, exact: true, problems: &problems)
        answeredAreListed(answered, in: cashouts, problems: &problems)
        for detail in state.details { self.detail(detail, quiet: true, problems: &problems) }
        let paged = state.details.flatMap { $0.list("webhooks") }.sorted { ($0["id"]?.int ?? 0) < ($1["id"]?.int ?? 0) }
        if paged != state.json.list("webhooks") { problems.append("GET /sandbox/webhooks is not the cashout pages' webhooks") }
    }

    /// Every create answered 200 is listed, with its merchant and external id.
    static func answeredAreListed(_ answered: [Created], in cashouts: [JSON], problems: inout [String]) {
        let listed = Dictionary(cashouts.map { ($0["cashout_id"]?.int ?? 0, $0) }) { first, _ in first }
        for created in answered {
            let found = listed[created.id]
            if found?.text("merchant") != created.merchant || found?.text("external_id") != created.externalID {
                problems.append("create \(created.merchant)/\(created.externalID) answered \(created.id), listed as \(found ?? .null)")
            }
        }
    }

    /// The balances a merchant's ledger passed through, in order, each with the number of entries
    /// before it; a balance set counts from where it was made. A broken chain goes to `problems`.
    static func ledgerStates(_ merchant: Merchant, entries: [JSON], sets: [BalanceSet], problems: inout [String])
        -> [(position: Int, balance: Money)] {
        var value = merchant.start
        var states = [(position: 0, balance: value)]
        let setsAt = Dictionary(grouping: sets.filter { $0.merchant == merchant.login }, by: \.position)
        for set in setsAt[0] ?? [] {
            value = set.balance
            states.append((0, value))
        }
        for (number, entry) in zip(1..., entries) {
            guard let amount = entry["amount"]?.money, let after = entry["balance_after"]?.money else {
                problems.append("ledger \(merchant.login) entry \(entry["id"] ?? .null): no amount or balance_after")
                continue
            }
            if after != value + amount {
                problems.append("ledger \(merchant.login) entry \(entry["id"] ?? .null): "
                    + "balance_after \(after) but \(value) + \(amount) = \(value + amount)")
            }
            if after < .zero { problems.append("ledger \(merchant.login) entry \(entry["id"] ?? .null): negative balance_after \(after)") }
            value = after
            states.append((number, value))
            for set in setsAt[number] ?? [] {
                value = set.balance
                states.append((number, value))
            }
        }
        return states
    }

    /// Balances against the ledger, debits and refunds against the cashouts. The reads were made in
    /// this order: `ledgerBefore`, `cashoutsBefore`, `merchants`, `ledgerAfter`, `cashoutsAfter`.
    static func money(ledgerBefore: [JSON], merchants: [JSON], ledgerAfter: [JSON], cashoutsBefore: [JSON], cashoutsAfter: [JSON],
                      sets: [BalanceSet], exact: Bool, problems: inout [String]) {
        let ids = ledgerAfter.map { $0["id"]?.int ?? -1 }
        if ids != Array(Set(ids)).sorted() { problems.append("ledger ids not unique and increasing") }
        if Array(ledgerAfter.prefix(ledgerBefore.count)) != ledgerBefore {
            problems.append("the ledger changed an entry it had shown (it may only grow)")
        }
        let before = Dictionary(grouping: ledgerBefore) { $0.text("merchant") }
        let after = Dictionary(grouping: ledgerAfter) { $0.text("merchant") }
        for listed in merchants {
            let login = listed.text("login")
            guard let balance = listed["balance"]?.money else {
                problems.append("merchant \(login): balance \(listed["balance"] ?? .null)")
                continue
            }
            if balance < .zero { problems.append("merchant \(login): negative balance \(balance)") }
            guard let merchant = Merchant.byLogin[login] else {
                problems.append("unexpected merchant \(login)")
                continue
            }
            let states = ledgerStates(merchant, entries: after[login] ?? [], sets: sets, problems: &problems)
            let (low, high) = ((before[login] ?? []).count, (after[login] ?? []).count)
            var possible = states.filter { low <= $0.position && $0.position <= high }.map(\.balance)
            if exact { possible = Array(possible.suffix(1)) }
            if !possible.contains(balance) {
                problems.append("merchant \(login): balance \(balance), but its ledger (entries \(low)...\(high), with the balances set) "
                    + "went through \(possible.prefix(6).map(\.description))")
            }
        }
        var debits: [Int: JSON] = [:]
        var refunds: [Int: JSON] = [:]
        for entry in ledgerAfter {
            let cashoutID = entry["cashout_id"]?.int ?? 0
            switch entry.text("kind") {
            case "debit" where debits[cashoutID] == nil: debits[cashoutID] = entry
            case "refund" where refunds[cashoutID] == nil: refunds[cashoutID] = entry
            case "debit", "refund": problems.append("cashout \(cashoutID): two \(entry.text("kind"))s (the second is entry \(entry["id"] ?? .null))")
            default: problems.append("ledger entry \(entry["id"] ?? .null): unknown kind \(entry["kind"] ?? .null)")
            }
        }
        let listedBefore = Dictionary(cashoutsBefore.map { ($0["cashout_id"]?.int ?? 0, $0) }) { first, _ in first }
        let listedAfter = Dictionary(cashoutsAfter.map { ($0["cashout_id"]?.int ?? 0, $0) }) { first, _ in first }
        for entry in ledgerBefore where listedBefore[entry["cashout_id"]?.int ?? 0] == nil {
            problems.append("ledger entry \(entry["id"] ?? .null) for cashout \(entry["cashout_id"] ?? .null), which is not listed")
        }
        for (cashoutID, cashout) in listedBefore {
            if debits[cashoutID] == nil { problems.append("cashout \(cashoutID): no debit") }
            if Lifecycle.refunded.contains(cashout.text("status")) && refunds[cashoutID] == nil {
                problems.append("cashout \(cashoutID) is \(cashout.text("status")) but has no refund")
            }
        }
        for (cashoutID, debit) in debits {
            guard let cashout = listedAfter[cashoutID] else {
                problems.append("debit \(debit["id"] ?? .null) for cashout \(cashoutID), which is not listed")
                continue
            }
            if debit.text("merchant") != cashout.text("merchant") || debit["amount"]?.money != cashout["settlement_amount"]?.money.map({ -$0 }) {
                problems.append("cashout \(cashoutID) (\(cashout.text("merchant")), \(cashout["settlement_amount"] ?? .null)): debit \(debit)")
            }
        }
        for (cashoutID, refund) in refunds {
            let debit = debits[cashoutID]
            if debit == nil || refund["amount"]?.money != debit?["amount"]?.money.map({ -$0 })
                || (refund["id"]?.int ?? 0) < (debit?["id"]?.int ?? 0) {
                problems.append("refund \(refund["id"] ?? .null) for cashout \(cashoutID) does not match its debit \(debit ?? .null)")
            }
            let status = listedAfter[cashoutID]?.text("status")
            if !Lifecycle.refunded.contains(status ?? "") {
                problems.append("refund \(refund["id"] ?? .null) for cashout \(cashoutID), which is \(status ?? "not listed")")
            }
        }
    }

    /// `observations`: the cashout lists in the order they were read. No cashout or external id is
    /// listed twice; a cashout seen in one status and later in another moved forward along the lifecycle.
    static func listing(_ observations: [([JSON], String)], problems: inout [String]) {
        var seen: [Int: (status: String, where: String)] = [:]
        for (listing, place) in observations {
            for (id, count) in Dictionary(listing.map { ($0["cashout_id"]?.int ?? 0, 1) }, uniquingKeysWith: +) where count > 1 {
                problems.append("cashout \(id) listed \(count) times in \(place)")
            }
            let keys = listing.map { "\($0.text("merchant"))/\($0.text("external_id"))" }
            for (key, count) in Dictionary(keys.map { ($0, 1) }, uniquingKeysWith: +) where count > 1 {
                problems.append("external_id \(key) listed \(count) times in \(place)")
            }
            for cashout in listing {
                let id = cashout["cashout_id"]?.int ?? 0
                let status = cashout.text("status")
                if let previous = seen[id], !(Lifecycle.reach[previous.status]?.contains(status) ?? false) {
                    problems.append("cashout \(id): \(previous.status) in \(previous.where), then \(status) in \(place)")
                }
                seen[id] = (status, place)
            }
        }
    }

    /// A history starts with the creation as PENDING; each step is one the lifecycle allows, none
    /// goes back in time, a rejection has its code; the status is the last step's.
    static func history(_ cashoutID: Int, status: String, returned: Bool?, _ history: [JSON], problems: inout [String]) {
        guard let first = history.first, first.text("status") == "PENDING", first.text("by") == "create" else {
            problems.append("cashout \(cashoutID): history does not start with its creation as PENDING: \(history.first ?? .null)")
            return
        }
        for (earlier, later) in zip(history, history.dropFirst()) {
            if !(Lifecycle.next[earlier.text("status")]?.contains(later.text("status")) ?? false) {
                problems.append("cashout \(cashoutID): history step \(earlier.text("status")) -> \(later.text("status")) is not allowed")
            }
            if later.text("at") < earlier.text("at") {
                problems.append("cashout \(cashoutID): history goes back in time (\(earlier.text("at")) then \(later.text("at")))")
            }
            if later.text("status") == "REJECTED" && (later["rejection_code"]?.isNull ?? true) {
                problems.append("cashout \(cashoutID): REJECTED without a rejection code")
            }
        }
        if status != history.last?.text("status") {
            problems.append("cashout \(cashoutID): status \(status) but its history ends with \(history.last?.text("status") ?? "")")
        }
        let late = history.count > 1 && history[history.count - 1].text("status") == "REJECTED"
            && history[history.count - 2].text("status") == "COMPLETED"
        if let returned, returned != late {
            problems.append("cashout \(cashoutID): returned_after_completion \(returned), history \(history.map { $0.text("status") })")
        }
    }

    /// A notification's attempts are numbered from 1, at most 6 scheduled, and its state follows from them.
    static func webhook(_ webhook: JSON, problems: inout [String]) {
        let attempts = webhook.list("attempts")
        let scheduled = attempts.filter { $0["manual"]?.boolValue != true }
        let succeeded = attempts.contains { (200 ..< 300).contains($0["response_status"]?.int ?? 0) }
        let state = webhook.text("state")
        let next = webhook["next_attempt_at"]?.isNull == false
        let place = "webhook \(webhook["id"] ?? .null) (cashout \(webhook["cashout_id"] ?? .null), \(state))"
        if attempts.map({ $0["number"]?.int ?? 0 }) != Array(0 ..< attempts.count).map({ $0 + 1 }) {
            problems.append("\(place): attempts numbered \(attempts.map { $0["number"] ?? .null })")
        }
        if scheduled.count > 6 { problems.append("\(place): \(scheduled.count) scheduled attempts, at most 6") }
        switch state {
        case "not_sent" where webhook["url"]?.isNull == false || !attempts.isEmpty:
            problems.append("\(place): not sent, but url \(webhook["url"] ?? .null) and \(attempts.count) attempts")
        case "delivered" where !succeeded || next:
            problems.append("\(place): delivered without a 2xx attempt, or with a next attempt")
        case "failed" where succeeded || scheduled.count != 6 || next:
            problems.append("\(place): failed after \(scheduled.count) scheduled attempts (success \(succeeded))")
        case "pending" where succeeded || !next || scheduled.count >= 6:
            problems.append("\(place): pending, next attempt \(webhook["next_attempt_at"] ?? .null), "
                + "\(scheduled.count) attempts (success \(succeeded))")
        case "not_sent", "delivered", "failed", "pending":
            break
        default:
            problems.append("\(place): unknown state")
        }
    }

    /// One cashout's page: its history, and its notifications are its status changes, in order.
    /// Under load the page is read in parts, so it may show a notification for a change made after
    /// its history was read: then its notifications need only begin with the changes.
    static func detail(_ detail: JSON, quiet: Bool, problems: inout [String]) {
        let cashoutID = detail["cashout_id"]?.int ?? 0
        let steps = detail.list("history")
        history(cashoutID, status: detail.text("status"), returned: detail["returned_after_completion"]?.boolValue, steps, problems: &problems)
        let changes = steps.dropFirst().map { $0.text("status") }
        let notified = detail.list("webhooks").map { $0.text("status") }
        if notified != changes && (quiet || Array(notified.prefix(changes.count)) != changes) {
            problems.append("cashout \(cashoutID): notifications \(notified), status changes \(changes)")
        }
        for webhook in detail.list("webhooks") { self.webhook(webhook, problems: &problems) }
    }

    /// Without the cashout pages: the notifications, in order, are each cashout's status changes.
    static func historiesFromWebhooks(cashouts: [JSON], webhooks: [JSON], problems: inout [String]) {
        var changes: [Int: [JSON]] = [:]
        for webhook in webhooks.sorted(by: { ($0["id"]?.int ?? 0) < ($1["id"]?.int ?? 0) }) {
            changes[webhook["cashout_id"]?.int ?? 0, default: []].append(
                ["status": webhook["status"] ?? .null, "at": webhook["changed_at"] ?? .null, "by": "?", "rejection_code": 0])
            self.webhook(webhook, problems: &problems)
        }
        for cashout in cashouts {
            let id = cashout["cashout_id"]?.int ?? 0
            let creation: JSON = ["status": "PENDING", "at": cashout["created_at"] ?? .null, "by": "create"]
            let steps = [creation] + (changes.removeValue(forKey: id) ?? [])
            history(id, status: cashout.text("status"), returned: cashout["returned_after_completion"]?.boolValue, steps, problems: &problems)
        }
        for id in changes.keys.sorted() { problems.append("notifications for cashout \(id), which is not listed") }
    }

    /// Where two states differ, at most `limit` places.
    static func differences(_ left: JSON, _ right: JSON, _ path: String, limit: Int = 8) -> [String] {
        var out: [String] = []
        func walk(_ left: JSON, _ right: JSON, _ path: String) {
            guard out.count < limit, left != right else { return }
            switch (left, right) {
            case (.object(let a), .object(let b)):
                for key in Set(a.keys).union(b.keys).sorted() {
                    if let x = a[key], let y = b[key] {
                        walk(x, y, "\(path).\(key)")
                    } else {
                        out.append("\(path).\(key): \(a[key] ?? "missing") vs \(b[key] ?? "missing")")
                    }
                }
            case (.array(let a), .array(let b)):
                if a.count != b.count { out.append("\(path): \(a.count) items vs \(b.count)") }
                for (index, (x, y)) in zip(a, b).enumerated() { walk(x, y, "\(path)[\(index)]") }
            default:
                out.append("\(path): \(left.serializedString()) vs \(right.serializedString())")
            }
        }
        walk(left, right, path)
        return Array(out.prefix(limit))
    }
}
