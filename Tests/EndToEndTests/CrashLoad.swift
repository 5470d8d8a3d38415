import Dispatch
import Foundation
import Glibc
@testable import SandboxWire
@testable import SandboxSupport
import Synchronization
import TestHelpers

/// Every kind of journaled change the crash load makes, by the name its messages give.
enum Change: String, CaseIterable, Sendable {
    // D24 (signed), the admin API's forced actions and redeliveries.
    case create, cancel, hold, release, action, redeliver
    // Mannco: a cashout of a scenario user; Payoneer unlinked and linked again through its page.
    case manncoCashout = "mannco cashout", manncoRelink = "mannco relink"
    // PayoutService over Connect's unary JSON (`POST /types.PayoutService/<Method>`): the same
    // handlers, so the same journal records, as a gRPC call.
    case psCreate = "ps create", psRepeat = "ps repeat", psStage = "ps stage", psTransfer = "ps transfer", psLink = "ps link"
    case psLinkPage = "ps link page", psVoid = "ps void", psRecipient = "ps recipient", psEnroll = "ps enroll"
    // The clock client, and the admin client's changes.
    case advanceBy = "advance by", scenario, sink, update, advanceTo = "advance to", advanceToNextEvent = "advance to next event"
    case snapshotPut = "snapshot put"

    /// What a load client picks from, with its weight (a Transfer, a link's page and an Enroll
    /// follow the Stage, the CreateLink and the CreateRecipient they belong to).
    static let clientMix: [(Change, Int)] = [
        (.create, 45), (.cancel, 8), (.hold, 5), (.release, 4), (.action, 10), (.redeliver, 4), (.manncoCashout, 10), (.manncoRelink, 3),
        (.psCreate, 8), (.psRepeat, 2), (.psStage, 3), (.psLink, 1), (.psVoid, 2), (.psRecipient, 1),
    ]

    /// The kinds a load client's requests make (the clock's and the admin's are not).
    static let clientKinds: Set<Change> = [.create, .cancel, .hold, .release, .action, .redeliver, .manncoCashout, .manncoRelink, .psCreate,
                                           .psRepeat, .psStage, .psTransfer, .psLink, .psLinkPage, .psVoid, .psRecipient, .psEnroll]
}

/// What the crash load's clients were answered, across rounds and restarts: what every restart
/// must still show.
struct CrashLog: Sendable {
    /// D24 creates answered 200: external_id → cashout id.
    var created: [String: Int] = [:]
    /// The latest D24 cashouts created (id, external_id): what the other requests act on.
    var recent: [(id: Int, externalID: String)] = []
    /// Cashouts a D24 cancel was answered 200 for.
    var cancelled: Set<Int> = []
    /// Cashouts a D24 hold was answered 200 for → the round it was last.
    var held: [Int: Int] = [:]
    /// Cashouts held and not released since (id, external_id): what a release acts on.
    var onHold: [Int: String] = [:]
    /// Forced actions answered 200: the round, the cashout, the history the answer showed.
    var histories: [(round: Int, id: Int, history: [JSON])] = []
    /// Redeliveries answered 200: the webhook, the attempts the answer showed.
    var redelivered: [(webhook: Int, attempts: [JSON])] = []
    /// The latest time an advance answered, as ``CrashLog/instant(_:)`` sorts it.
    var clock = ""
    /// The merchants scenario loads answered 200 added.
    var scenarioMerchants: Set<String> = []
    /// The updated merchant's transaction limit: the last value answered, and one sent but not answered.
    var update: (answered: String?, sent: String?) = (nil, nil)
    /// Changes answered (200, a sink script's 204), by kind.
    var answered: [Change: Int] = [:]
    /// Answers no request of the load may get (a 5xx, say).
    var unexpected: [String] = []
    /// Mannco cashouts answered 200 → their user.
    var mannco: [Int: String] = [:]
    /// PayoutService payouts answered (Create, Stage, CreateLink): merchant_payout_id → connector_payout_id.
    var payouts: [String: String] = [:]
    /// The latest of them (connector_payout_id, merchant_payout_id).
    var recentPayouts: [(id: String, reference: String)] = []
    /// Creates declined inside an OK answer (they create nothing), Transfers, link pages and Voids answered.
    var declined: Set<String> = [], transferred: Set<String> = [], submitted: Set<String> = [], voided: Set<String> = []
    /// Every recipient (`rcp_`) and account (`pm_`) id CreateRecipient and EnrollDisburseAccount answered, in order.
    var enrolled: [String] = []

    /// `text` (ISO 8601) in a form that sorts as the time does: with milliseconds (a restart in
    /// the middle of an advance leaves the clock at the last event's time, which webhook chaos may give some).
    static func instant(_ text: String) -> String {
        text.hasSuffix("Z") && !text.contains(".") ? text.dropLast() + ".000Z" : text
    }
}

/// The crash load's shared record, and the door a snapshot's GET and PUT go through alone.
final class CrashRun: Sendable {
    let log = Mutex(CrashLog())
    /// Requests in flight, and whether one waits to run with nothing else in flight.
    private let gate = Mutex((inFlight: 0, alone: false))

    /// Counts an answer: a change answered, or (unless `allowed`) one the request cannot get.
    /// Nothing for no answer: the server was killed.
    func expect(_ change: Change, _ answer: SandboxConnection.Answer?, allowed: Set<Int> = [], success: Int = 200) {
        guard let answer else { return }
        log.withLock { log in
            if answer.status == success {
                log.answered[change, default: 0] += 1
            } else if !allowed.contains(answer.status) {
                log.unexpected.append("\(change.rawValue): HTTP \(answer.status) \(answer.text)")
            }
        }
    }

    func answered(_ kinds: Set<Change>) -> Int {
        log.withLock { log in kinds.reduce(0) { $0 + log.answered[$1, default: 0] } }
    }

    /// Runs `work` as one request in flight, or (`alone`) once no other is, none starting meanwhile.
    func inFlight<T>(alone: Bool = false, _ work: () -> T) -> T {
        while !gate.withLock({ gate in
            guard !gate.alone else { return false }
            if alone { gate.alone = true } else { gate.inFlight += 1 }
            return true
        }) { usleep(1000) }
        if alone { while gate.withLock({ $0.inFlight > 0 }) { usleep(1000) } }
        defer { gate.withLock { gate in if alone { gate.alone = false } else { gate.inFlight -= 1 } } }
        return work()
    }
}

/// The crash load: the requests its clients send, each client on a thread and a keep-alive
/// connection of its own, until `stop` opens (a kill finds them in flight).
struct CrashLoad: Sendable {
    static let login = "sandbox_login", password = "sandbox_pass"
    /// Nothing listens on the discard port: every attempt fails and is retried.
    static let refusedURL = "http://127.0.0.1:9/refused"
    /// What the built-in sink `flaky` answers, in turn.
    static let sinkAnswers: [Int] = [500, 503, 200, 500, 200, 502, 500, 500, 200]
    /// Mannco users: one cashout each per day of virtual time, so there are enough for every round.
    static let users = 200
    static let userStartCents = 100_000_000
    /// The merchant the admin client updates.
    static let updated = "crash-updates"
    static let names = ["Ana", "Ana", "Ana", "Ana", "Ana", "Ana", "REJECT 801", "LATE REJECT 826", "STUCK", "NEVER", "SLOW", "KYC 105"]
    static let emails = ["user@example.com", "user@example.com", "user@example.com", "user@example.com", "user@example.com",
                         "fail@example.com", "late-fail@example.com", "never@example.com"]
    static let prismNames = ["Ana Lima", "Ana Lima", "Ana Lima", "Ana Lima", "Ana Lima", "FAIL Ana", "REVERSE Ana", "STUCK Ana", "DECLINE Ana"]
    static let prismHeaders = [("x-connector", "sandbox"), ("x-auth", "header-key"), ("x-api-key", "sandbox_prism_key")]

    /// The scenario the server starts with: the sink `flaky`, webhook chaos of every kind (rare:
    /// an advance waits for the answer to a delivery whose chaos could come before its next event),
    /// a first retry after 30 s rather than 5 min (the rounds move the clock a few minutes in
    /// all), and the Mannco users.
    static var scenario: JSON {
        let chaos: JSON = [
            ["kind": "duplicate", "rate": .number("0.01"), "after": ["min": "0s", "max": "20s"]], ["kind": "forged", "every": 100],
            ["when": ["status": "DELIVERED"], "kind": "out_of_order", "rate": .number("0.01"), "release_after": "1m"],
            ["kind": "replay", "rate": .number("0.01"), "after": "10s"],
            ["kind": "delayed", "rate": .number("0.01"), "delay": ["min": "1s", "max": "30s"]],
        ]
        let accounts = (0 ..< users).map { n -> JSON in
            ["id": .string("crash-user-\(n)"), "api_key": .string("crash-key-\(n)"), "balance": .number(userStartCents),
             "linked": ["payoneer", "tipalti"]]
        }
        return ["name": "crash", "users": .array(accounts),
                "webhooks": ["sinks": ["flaky": ["answers": .array(sinkAnswers.map { .number($0) })]], "chaos": chaos,
                             "retry": ["30s", "2m", "10m", "1h", "5h"]]]
    }

    let port: Int
    let run: CrashRun
    let stop: Latch
    let round: Int
    /// A receiver of the test's that answers in 10-80 ms.
    let slowURL: String

    /// Where a change notifies: the flaky sink, a closed port, the slow receiver, or nowhere.
    func notificationURL(_ rng: inout SeededGenerator) -> String? {
        switch Int.random(in: 0 ..< 100, using: &rng) {
        case ..<25: "http://127.0.0.1:\(port)/sandbox/sink/flaky"
        case ..<40: Self.refusedURL
        case ..<50: slowURL
        default: nil
        }
    }

    /// One load client: a seeded mix of D24, Mannco and PayoutService changes, forced actions and redeliveries.
    func client(seed: UInt64, prefix: String) {
        var rng = SeededGenerator(seed: seed)
        let connection = SandboxConnection(port: port)
        var count = 0
        while !stop.isOpen {
            count += 1
            let change = rng.pick(Change.clientMix)
            let done = run.inFlight { send(change, on: connection, reference: "\(prefix)-\(count)", &rng) }
            if !done { usleep(10_000) }  // killed: keep trying until told to stop
        }
    }

    /// Sends one change; false when it got no answer.
    private func send(_ change: Change, on connection: SandboxConnection, reference: String, _ rng: inout SeededGenerator) -> Bool {
        // The latest cashouts (a cancel or a hold finds more of them PENDING), or one held.
        let (recent, held) = run.log.withLock { log in
            (log.recent.suffix(20).randomElement(using: &rng), log.onHold.sorted { $0.key < $1.key }.randomElement(using: &rng))
        }
        switch change {
        case .cancel, .hold, .release, .action, .redeliver:
            guard let recent else { return d24Create(on: connection, reference: reference, &rng) }
            let target = change == .release ? held.map { (id: $0.key, externalID: $0.value) } ?? recent : recent
            return d24Change(change, of: target, on: connection, &rng)
        case .manncoCashout, .manncoRelink:
            return mannco(change, on: connection, &rng)
        case .psCreate, .psRepeat, .psStage, .psLink, .psVoid, .psRecipient:
            return payoutService(change, on: connection, reference: reference, &rng)
        default:
            return d24Create(on: connection, reference: reference, &rng)
        }
    }

    private func d24Create(on connection: SandboxConnection, reference: String, _ rng: inout SeededGenerator) -> Bool {
        let amount = "\(Int.random(in: 10 ... 500, using: &rng)).\(String(format: "%02d", Int.random(in: 0 ... 99, using: &rng)))"
        var fields: [String: JSON] = [
            "login": .string(Self.login), "pass": .string(Self.password), "external_id": .string(reference), "country": "BR", "currency": "BRL",
            "amount": .string(amount), "document_id": "01716001340", "document_type": "CPF",
            "beneficiary_name": .string((Self.names + ["RULE \(round)"]).randomElement(using: &rng)!),
            "beneficiary_lastname": "Silva", "bank_code": "001", "bank_account": "3423422-7", "bank_branch": "1234", "account_type": "C",
        ]
        fields["notification_url"] = notificationURL(&rng).map { JSON.string($0) }
        let answer = connection.signed("POST", "/v3/cashout", .object(fields))
        if let answer, answer.status == 200, let id = answer.json["cashout_id"]?.int {
            run.log.withLock { log in
                log.created[reference] = id
                log.recent.append((id, reference))
                if log.recent.count > 400 { log.recent.removeFirst(100) }
            }
        }
        run.expect(.create, answer, allowed: [400])  // 400: KYC 105's decline
        return answer != nil
    }

    /// A D24 cancel, hold or release (a release of a cashout held), a forced action or a redelivery.
    private func d24Change(_ change: Change, of cashout: (id: Int, externalID: String), on connection: SandboxConnection,
                           _ rng: inout SeededGenerator) -> Bool {
        let answer: SandboxConnection.Answer?
        switch change {
        case .cancel, .hold, .release:
            var fields: [String: JSON] = ["login": .string(Self.login), "pass": .string(Self.password), "external_id": .string(cashout.externalID)]
            if change == .cancel {
                fields["cashout_id"] = .number(cashout.id)
                answer = connection.signed("DELETE", "/v3/cashout/cancel", .object(fields))
            } else {
                fields["status"] = change == .hold ? "ON_HOLD" : "PENDING"
                answer = connection.signed("PUT", "/v3/cashout/status", .object(fields))
            }
            if let answer {
                run.log.withLock { log in
                    switch change {
                    case .cancel where answer.status == 200: _ = log.cancelled.insert(cashout.id)
                    case .hold where answer.status == 200: (log.held[cashout.id], log.onHold[cashout.id]) = (round, cashout.externalID)
                    case .release: log.onHold[cashout.id] = nil  // released, or no longer held (forced on meanwhile)
                    default: break
                    }
                }
            }
            run.expect(change, answer, allowed: [412])  // 412 {"code":510}: the lifecycle forbids it
        case .action:
            let name = ["deliver", "complete", "reject", "hold", "release", "cancel"].randomElement(using: &rng)!
            var action: [String: JSON] = ["action": .string(name)]
            if name == "reject" && Bool.random(using: &rng) { action["rejection_code"] = .number([801, 805, 826].randomElement(using: &rng)!) }
            answer = connection.call("POST", "/sandbox/cashouts/\(cashout.id)/actions", .object(action))
            if let answer, answer.status == 200 {
                let history = answer.json["history"]?.elements ?? []
                run.log.withLock { $0.histories.append((round, cashout.id, history)) }
            }
            run.expect(change, answer, allowed: [409])
        default:  // redeliver
            let top = max(1, 2 * run.log.withLock { $0.created.count })
            answer = connection.call("POST", "/sandbox/webhooks/\(Int.random(in: 1 ... top, using: &rng))/redeliver")
            if let answer, answer.status == 200, let id = answer.json["id"]?.int {
                let attempts = answer.json["attempts"]?.elements ?? []
                run.log.withLock { $0.redelivered.append((id, attempts)) }
            }
            run.expect(change, answer, allowed: [404, 409])
        }
        return answer != nil
    }

    /// A Mannco user's cashout (a user's second one is refused by the one-pending or cooldown
    /// rule), or Payoneer unlinked and linked again through its link page (a GET that changes the state).
    private func mannco(_ change: Change, on connection: SandboxConnection, _ rng: inout SeededGenerator) -> Bool {
        let user = Int.random(in: 0 ..< Self.users, using: &rng)
        guard let login = connection.call("POST", "/user/login", ["apiKey": .string("crash-key-\(user)")]) else { return false }
        guard login.status == 200, let token = login.json["content"]?["jwt"]?.stringValue else {
            run.log.withLock { $0.unexpected.append("login of crash-user-\(user): HTTP \(login.status) \(login.text)") }
            return true
        }
        let bearer = [("Authorization", "Bearer \(token)")]
        if change == .manncoCashout {
            let order: JSON = ["amount": .number(Int.random(in: 5000 ... 500_000, using: &rng)),
                               "method": .string(["payoneer", "tipalti"].randomElement(using: &rng)!),
                               "email": .string(Self.emails.randomElement(using: &rng)!)]
            let answer = connection.call("POST", "/cashout/process", order, headers: bearer)
            if let answer, answer.status == 200, let id = answer.json["content"]?["cashoutId"]?.int {
                run.log.withLock { $0.mannco[id] = "crash-user-\(user)" }
            }
            run.expect(change, answer, allowed: [300])  // 300: one pending, the cooldown, or Payoneer unlinked meanwhile
            return answer != nil
        }
        guard connection.call("POST", "/cashout/unlink", ["provider": "payoneer"], headers: bearer) != nil,
              var answer = connection.call("POST", "/cashout/link", ["provider": "payoneer"], headers: bearer) else { return false }
        if answer.status == 200, let link = answer.json["content"]?["link"]?.stringValue, let page = link.range(of: "/cashout/link/") {
            guard let opened = connection.call("GET", String(link[page.lowerBound...])) else { return false }
            answer = opened
        }
        run.expect(change, answer)
        return true
    }

    private func prism(_ method: String, _ message: JSON, on connection: SandboxConnection) -> SandboxConnection.Answer? {
        connection.call("POST", "/types.PayoutService/\(method)", message, headers: Self.prismHeaders)
    }

    private static func money(_ rng: inout SeededGenerator) -> JSON {
        ["minor_amount": .number(Int.random(in: 100 ... 50_000, using: &rng)), "currency": "USD"]
    }

    private static func card(holder: String? = nil) -> JSON {
        var card: [String: JSON] = ["card_number": ["value": "4111111111111111"]]
        if let holder { card["card_holder_name"] = ["value": .string(holder)] }
        return ["card": .object(card)]
    }

    /// A PayoutService change for DefaultMerchantId: a Create with a magic recipient name for every
    /// fate (DECLINE is refused inside an OK answer and creates nothing), a Create repeated (the
    /// same payout), a Stage then most times its Transfer, a CreateLink then most times its page
    /// submitted, a Void, or a CreateRecipient, its EnrollDisburseAccount and most times a Create
    /// paying the enrolled account.
    private func payoutService(_ change: Change, on connection: SandboxConnection, reference: String, _ rng: inout SeededGenerator) -> Bool {
        let known = run.log.withLock { $0.recentPayouts.randomElement(using: &rng) }
        let change = (change == .psRepeat || change == .psVoid) && known == nil ? .psCreate : change
        let record = { (reference: String, answer: SandboxConnection.Answer) in
            guard let id = answer.json["connectorPayoutId"]?.stringValue else { return }
            self.run.log.withLock { log in
                log.payouts[reference] = id
                log.recentPayouts.append((id, reference))
                if log.recentPayouts.count > 200 { log.recentPayouts.removeFirst(50) }
            }
        }
        switch change {
        case .psCreate:
            var message: [String: JSON] = ["merchant_payout_id": .string(reference), "amount": Self.money(&rng),
                                           "payout_method_data": Self.card(holder: Self.prismNames.randomElement(using: &rng)!)]
            message["webhook_url"] = notificationURL(&rng).map { JSON.string($0) }
            guard let answer = prism("Create", .object(message), on: connection) else { return false }
            let status = answer.json["payoutStatus"]?.stringValue
            if answer.status == 200 && status == "PENDING" {
                record(reference, answer)
            } else if answer.status == 200 && status == "FAILED" && answer.json["connectorPayoutId"] == nil {
                run.log.withLock { _ = $0.declined.insert(reference) }
            } else if answer.status == 200 {
                run.log.withLock { $0.unexpected.append("ps create: \(answer.text)") }
            }
            run.expect(change, answer)
        case .psRepeat:
            let (id, again) = known!
            let answer = prism("Create", ["merchant_payout_id": .string(again), "amount": Self.money(&rng), "payout_method_data": Self.card()],
                               on: connection)
            if let answer, answer.status == 200, answer.json["connectorPayoutId"]?.stringValue != id {
                run.log.withLock { $0.unexpected.append("ps repeat of \(again) (\(id)): \(answer.text)") }
            }
            run.expect(change, answer)
            return answer != nil
        case .psStage:
            guard let answer = prism("Stage", ["merchant_quote_id": .string(reference), "amount": Self.money(&rng), "customer": ["name": "Ana Lima"]],
                                     on: connection) else { return false }
            run.expect(change, answer)
            guard answer.status == 200, let id = answer.json["connectorPayoutId"]?.stringValue else { return true }
            record(reference, answer)
            if Int.random(in: 0 ..< 10, using: &rng) < 8 {
                let transfer = prism("Transfer", ["connector_payout_id": .string(id)], on: connection)
                if let transfer, transfer.status == 200, transfer.json["payoutStatus"] == "PENDING" {
                    run.log.withLock { _ = $0.transferred.insert(id) }
                }
                run.expect(.psTransfer, transfer, allowed: [400])  // a Void got there first
            }
        case .psLink:
            var message: [String: JSON] = ["merchant_payout_id": .string(reference), "amount": Self.money(&rng)]
            message["webhook_url"] = notificationURL(&rng).map { JSON.string($0) }
            guard let answer = prism("CreateLink", .object(message), on: connection) else { return false }
            run.expect(change, answer)
            guard answer.status == 200, let id = answer.json["connectorPayoutId"]?.stringValue else { return true }
            record(reference, answer)
            guard let payout = connection.call("GET", "/sandbox/cashouts/\(id)"), payout.status == 200,
                  Int.random(in: 0 ..< 10, using: &rng) < 8, let link = payout.json["fields"]?["payout_link"]?.stringValue,
                  let path = link.range(of: "/", options: [], range: link.index(link.startIndex, offsetBy: "http://".count) ..< link.endIndex)
            else { return true }
            let form = Array("method=card&holder_name=Ana+Lima&account=4111111111111111".utf8)
            let page = connection.call("POST", String(link[path.lowerBound...]), raw: form,
                                       headers: [("Content-Type", "application/x-www-form-urlencoded")])
            if let page, page.status == 200 { run.log.withLock { _ = $0.submitted.insert(id) } }
            run.expect(.psLinkPage, page, allowed: [402, 410])  // the balance; voided or expired first
        case .psRecipient:
            guard let answer = prism("CreateRecipient", ["customer": ["name": .string(Self.prismNames.randomElement(using: &rng)!)],
                                                         "recipient_type": "INDIVIDUAL"], on: connection) else { return false }
            run.expect(change, answer)
            guard answer.status == 200, let recipient = answer.json["connectorPayoutId"]?.stringValue else { return true }
            run.log.withLock { $0.enrolled.append(recipient) }
            let enrolled = prism("EnrollDisburseAccount",
                                 ["payout_method_data": Self.card(), "customer": ["connector_customer_id": .string(recipient)]], on: connection)
            run.expect(.psEnroll, enrolled)
            guard let enrolled, enrolled.status == 200, let account = enrolled.json["connectorPayoutId"]?.stringValue else { return true }
            run.log.withLock { $0.enrolled.append(account) }
            if Int.random(in: 0 ..< 10, using: &rng) < 7 {
                let paid = prism("Create", ["merchant_payout_id": .string(reference), "amount": Self.money(&rng),
                                            "connector_payout_method_id": .string(account)], on: connection)
                if let paid, paid.status == 200, paid.json["payoutStatus"] == "PENDING" { record(reference, paid) }
                run.expect(.psCreate, paid)
            }
        default:  // ps void
            let (id, _) = known!
            let answer = prism("Void", ["connector_payout_id": .string(id)], on: connection)
            if let answer, answer.status == 200, answer.json["payoutStatus"] == "CANCELLED" {
                run.log.withLock { _ = $0.voided.insert(id) }
            }
            run.expect(change, answer, allowed: [400])  // failed_precondition: the lifecycle forbids it
            return answer != nil
        }
        return true
    }

    /// The clock client: advances by 5 s (now and then 20 s), a quarter of a second apart.
    func ticker(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let connection = SandboxConnection(port: port)
        while !stop.isOpen {
            let by = ["5s", "5s", "5s", "20s"].randomElement(using: &rng)!
            let answer = run.inFlight { connection.call("POST", "/sandbox/clock/advance", ["by": .string(by)]) }
            advanced(.advanceBy, answer)
            usleep(answer == nil ? 10_000 : 250_000)
        }
    }

    private func advanced(_ change: Change, _ answer: SandboxConnection.Answer?, allowed: Set<Int> = []) {
        if let answer, answer.status == 200, let now = answer.json["now"]?.stringValue {
            run.log.withLock { log in log.clock = max(log.clock, CrashLog.instant(now)) }
        }
        run.expect(change, answer, allowed: allowed)
    }

    /// The admin client, one change at a time: first (`snapshot`) a snapshot GET and PUT back while
    /// no other request is in flight, a scenario load (a merchant and a rule for `RULE <round>`),
    /// a sink script and an advance; then merchant updates and advances to a time and to the next
    /// event. `tried` opens once the first steps were answered.
    func admin(seed: UInt64, snapshot: Bool, tried: Latch) {
        var rng = SeededGenerator(seed: seed)
        let connection = SandboxConnection(port: port)
        let merchant = "crash-r\(round)"
        let scenario: JSON = [
            "name": .string(merchant), "merchants": [["login": .string(merchant), "pass": "p", "secret": "s", "balance": ["USD": "100.00"]]],
            "bank": ["rules": [["name": .string("rule of round \(round)"), "when": ["beneficiary_name": .string("RULE \(round)")],
                                "then": [["after": "2s", "status": "DELIVERED"], ["after": "1s", "status": "REJECTED", "rejection_code": 803]]]]],
        ]
        // The rarest step first: a round may be killed soon after these.
        var steps: [Change] = (snapshot ? [.snapshotPut] : []) + [.scenario, .sink, round % 2 == 1 ? .advanceTo : .advanceToNextEvent]
        var count = 0
        while !stop.isOpen {
            if steps.isEmpty { tried.open() }
            let step = steps.isEmpty ? [.update, .update, .advanceTo, .advanceToNextEvent].randomElement(using: &rng)! : steps.removeFirst()
            let done = run.inFlight(alone: step == .snapshotPut) { () -> Bool in
                switch step {
                case .snapshotPut:  // what it restores is what there was: every change answered before it stays
                    guard let saved = connection.call("GET", "/sandbox/snapshot") else { return false }
                    guard saved.status == 200 else {
                        run.log.withLock { $0.unexpected.append("GET /sandbox/snapshot: HTTP \(saved.status)") }
                        return true
                    }
                    let answer = connection.call("PUT", "/sandbox/snapshot", raw: saved.body)
                    run.expect(step, answer)
                    return answer != nil
                case .scenario:
                    let answer = connection.call("POST", "/sandbox/scenario", scenario)
                    if let answer, answer.status == 200 { run.log.withLock { _ = $0.scenarioMerchants.insert(merchant) } }
                    run.expect(step, answer)
                    return answer != nil
                case .sink:
                    let answer = connection.call("PUT", "/sandbox/sink/flaky", ["answers": .array(Self.sinkAnswers.map { .number($0) })])
                    run.expect(step, answer, success: 204)
                    return answer != nil
                case .update:
                    count += 1
                    let value = "\(round * 1000 + count).00"
                    run.log.withLock { $0.update.sent = value }
                    let answer = connection.call("PUT", "/sandbox/merchants/\(Self.updated)", ["limits": ["transaction": .string(value)]])
                    if let answer, answer.status == 200 { run.log.withLock { $0.update = (value, nil) } }
                    run.expect(step, answer)
                    return answer != nil
                case .advanceTo:
                    guard let clock = connection.call("GET", "/sandbox/clock"), let now = clock.json["now"]?.stringValue,
                          let seconds = Self.seconds(now) else { return false }
                    let answer = connection.call("POST", "/sandbox/clock/advance",
                                                 ["to": .string(Self.iso(seconds + Int.random(in: 1 ... 30, using: &rng)))])
                    advanced(step, answer, allowed: [409])  // 409: another client's advance went past it
                    return answer != nil
                default:
                    let answer = connection.call("POST", "/sandbox/clock/advance", ["to_next_event": true])
                    advanced(step, answer)
                    return answer != nil
                }
            }
            if !done { steps.insert(step, at: 0) }  // killed: tried again if the round goes on
            usleep(done ? 50_000 : 10_000)
        }
    }

    /// Whole seconds since 1970 of an ISO 8601 time (`2026-11-22T07:59:26Z`, with or without milliseconds).
    static func seconds(_ text: String) -> Int? {
        let numbers = text.prefix(19).split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard numbers.count == 6 else { return nil }
        var parts = tm()
        (parts.tm_year, parts.tm_mon, parts.tm_mday) = (Int32(numbers[0] - 1900), Int32(numbers[1] - 1), Int32(numbers[2]))
        (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(numbers[3]), Int32(numbers[4]), Int32(numbers[5]))
        return timegm(&parts)
    }

    static func iso(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                      parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}

/// A webhook receiver that answers after 10-80 ms, now and then 500: a kill often finds
/// notifications on their way to it.
final class SlowReceiver: Sendable {
    private let server: HTTPServer
    var url: String { "http://127.0.0.1:\(server.port)/hook" }

    init() throws {
        var router = Router()
        router.add("POST /hook") { _ in
            .later(on: .global()) {
                usleep(UInt32.random(in: 10_000 ... 80_000))
                return HTTPResponse(status: Int.random(in: 0 ..< 10) < 2 ? 500 : 200)
            }
        }
        server = try HTTPServer.start(configuration: .init(host: "127.0.0.1", port: 0, threads: 1), handler: router.respond)
    }

    func stop() { server.stop() }
}
