@testable import SandboxBank
@testable import SandboxSupport

/// What a sandbox started again on a crashed state directory must show: every change answered
/// before the kill, and ledgers that add up. Each check adds what it finds wrong to `problems`.
enum CrashChecks {
    static let merchant = "sandbox_login", prismMerchant = "DefaultMerchantId"
    static let startBalance = Money("1000000.00")!

    /// What a restart showed.
    struct Restart {
        var problems: [String] = []
        var cashouts = 0, payouts = 0, retried = 0, chaos = 0
        var clock = ""
        /// The updated merchant's transaction limit.
        var updatedLimit: String?
    }

    /// Lets what was due when the server started run: an advance of 0 s returns once it has, and
    /// then nothing changes on a manual clock, so the reads after it agree with each other.
    static func settle(_ sandbox: SandboxReader) throws {
        try sandbox.send("POST", "/sandbox/clock/advance", ["by": "0s"], expecting: 200)
    }

    /// The default merchant's balance is its start plus its ledger's entries, exactly; one debit
    /// per cashout, a refund exactly for each REJECTED or CANCELLED one; no merchant's balance is
    /// negative. The default merchant's cashouts by id, and every merchant.
    static func ledger(_ sandbox: SandboxReader, _ problems: inout [String]) throws -> (cashouts: [Int: JSON], merchants: [JSON]) {
        var cashouts: [Int: JSON] = [:]
        for cashout in try sandbox.get("/sandbox/cashouts?merchant=\(merchant)")["cashouts"]?.elements ?? [] {
            if let id = cashout["cashout_id"]?.int { cashouts[id] = cashout }
        }
        let entries = try sandbox.get("/sandbox/ledger?merchant=\(merchant)")["entries"]?.elements ?? []
        let merchants = try sandbox.get("/sandbox/merchants")["merchants"]?.elements ?? []
        let balance = merchants.first { $0["login"]?.stringValue == merchant }?["balance"]?.money
        let expected = total(entries, from: startBalance, &problems)
        if balance != expected { problems.append("\(merchant): balance \(balance?.description ?? "none"), but the ledger says \(expected)") }
        var debits: [Int: Int] = [:], refunds: [Int: Int] = [:]
        for entry in entries {
            guard let id = entry["cashout_id"]?.int else { continue }
            if entry["kind"] == "debit" { debits[id, default: 0] += 1 }
            if entry["kind"] == "refund" { refunds[id, default: 0] += 1 }
        }
        if Set(debits.keys) != Set(cashouts.keys) || debits.values.contains(where: { $0 != 1 }) {
            problems.append("\(debits.values.reduce(0, +)) debits for \(cashouts.count) cashouts")
        }
        for (id, cashout) in cashouts.sorted(by: { $0.key < $1.key }) {
            let status = cashout["status"]?.stringValue ?? ""
            if refunds[id, default: 0] != (["REJECTED", "CANCELLED"].contains(status) ? 1 : 0) {
                problems.append("cashout \(id) is \(status) with \(refunds[id, default: 0]) refunds")
            }
        }
        for merchant in merchants where (merchant["balance"]?.money ?? .zero) < .zero {
            let (login, balance) = (merchant["login"]?.stringValue ?? "?", merchant["balance"]?.money?.description ?? "?")
            problems.append("merchant \(login) has a negative balance \(balance)")
        }
        return (cashouts, merchants)
    }

    /// `start` plus every ledger entry's amount; an entry without one is a problem.
    static func total(_ entries: [JSON], from start: Money, _ problems: inout [String]) -> Money {
        entries.reduce(start) { sum, entry in
            guard let amount = entry["amount"]?.money else {
                problems.append("a ledger entry without an amount: \(entry.serializedString())")
                return sum
            }
            return sum + amount
        }
    }

    /// What decided each cashout is kept (through kills, compactions, snapshots); a journal written
    /// before it was recorded shows every cashout's as unknown.
    static func decidedBy(_ cashouts: [Int: JSON], journaledBeforeIt: Bool, _ problems: inout [String]) {
        var kinds: [String: Int] = [:]
        for cashout in cashouts.values { kinds[cashout["decided_by"]?["kind"]?.stringValue ?? "none", default: 0] += 1 }
        let wrong = kinds.filter { ($0.key == "unknown") != journaledBeforeIt }.values.reduce(0, +)
        if wrong > 0 { problems.append("decided_by kinds \(kinds): \(wrong) " + (journaledBeforeIt ? "known" : "unknown")) }
    }

    /// Every change `log` holds as answered is in the restarted sandbox, and every ledger adds up.
    /// `lastClock`: the time the last restart showed; `round`: the rounds so far.
    static func restart(_ sandbox: SandboxReader, _ log: CrashLog, lastClock: String, round: Int,
                        _ rng: inout SeededGenerator) throws -> Restart {
        var result = Restart()
        try settle(sandbox)
        let (cashouts, merchants) = try ledger(sandbox, &result.problems)
        result.cashouts = cashouts.count
        decidedBy(cashouts, journaledBeforeIt: false, &result.problems)
        try users(sandbox, log, &result.problems)
        result.payouts = try payoutService(sandbox, log, &result.problems)

        var byExternalID: [String: Int] = [:]
        for (id, cashout) in cashouts { if let external = cashout["external_id"]?.stringValue { byExternalID[external] = id } }
        for (externalID, id) in log.created.sorted(by: { $0.value < $1.value }) where byExternalID[externalID] != id {
            result.problems.append("\(externalID) was created as \(id) but is \(byExternalID[externalID].map(String.init) ?? "gone")")
        }
        for id in log.cancelled.sorted() where cashouts[id].map({ $0["status"] != "CANCELLED" }) ?? false {
            result.problems.append("cashout \(id) was cancelled (200) but is \(cashouts[id]?["status"]?.stringValue ?? "?")")
        }

        // Histories are read one cashout at a time: those changed in this round and the one before
        // (which no restart, or one only, checked yet), and a sample of the older ones.
        var changed: [Int: Int] = [:]
        for entry in log.histories { changed[entry.id] = max(changed[entry.id] ?? 0, entry.round) }
        for (id, heldIn) in log.held { changed[id] = max(changed[id] ?? 0, heldIn) }
        let older = changed.filter { $0.value < round - 1 }.keys.sorted()
        let wanted = changed.filter { $0.value >= round - 1 }.keys.sorted() + older.shuffled(using: &rng).prefix(50)
        var histories: [Int: [JSON]] = [:]
        let connection = SandboxConnection(port: sandbox.port)
        for id in wanted {
            guard let answer = connection.call("GET", "/sandbox/cashouts/\(id)"), answer.status == 200 else {
                throw Unexpected("GET /sandbox/cashouts/\(id) was not answered 200")
            }
            histories[id] = answer.json["history"]?.elements ?? []
        }
        for entry in log.histories {
            if let now = histories[entry.id], !now.starts(with: entry.history) {
                result.problems.append("cashout \(entry.id): a forced action answered the history \(JSON.array(entry.history).serializedString()), "
                    + "but it is now \(JSON.array(now).serializedString())")
            }
        }
        for id in log.held.keys.sorted() where histories[id].map({ !$0.contains { $0["status"] == "ON_HOLD" } }) ?? false {
            result.problems.append("cashout \(id) was put ON_HOLD (200), but its history has no ON_HOLD")
        }

        var webhooks: [Int: JSON] = [:]
        for webhook in try sandbox.get("/sandbox/webhooks")["webhooks"]?.elements ?? [] {
            if let id = webhook["id"]?.int { webhooks[id] = webhook }
        }
        for (id, attempts) in log.redelivered where !(webhooks[id]?["attempts"]?.elements ?? []).starts(with: attempts) {
            result.problems.append("webhook \(id): a redelivery answered the attempts \(JSON.array(attempts).serializedString()), "
                + "but they are now \(webhooks[id]?["attempts"].map { $0.serializedString() } ?? "gone")")
        }
        let attempts = webhooks.values.flatMap { $0["attempts"]?.elements ?? [] }
        result.retried = attempts.count { $0["retry"] == true }
        result.chaos = attempts.count { !($0["chaos"]?.isNull ?? true) }

        result.clock = try sandbox.get("/sandbox/clock")["now"]?.stringValue ?? ""
        let latest = max(log.clock, CrashLog.instant(lastClock))
        if CrashLog.instant(result.clock) < latest {
            result.problems.append("the clock is at \(result.clock), before \(latest) (answered, or seen at the last restart)")
        }
        let logins = Dictionary(merchants.compactMap { merchant in merchant["login"]?.stringValue.map { ($0, merchant) } }) { first, _ in first }
        for login in log.scenarioMerchants.subtracting(logins.keys).sorted() {
            result.problems.append("merchant \(login), loaded with a scenario (200), is gone")
        }
        let value = logins[CrashLoad.updated]?["limits"]?["transaction"].flatMap { $0.stringValue ?? $0.numberText }
        result.updatedLimit = value
        if let answered = log.update.answered {
            if value != answered && value != log.update.sent {
                result.problems.append("merchant \(CrashLoad.updated)'s transaction limit is \(value ?? "none"), but the last update answered was "
                    + "\(answered)" + (log.update.sent.map { " (and \($0) was on its way)" } ?? ""))
            }
        }
        return result
    }

    /// Every Mannco cashout answered is there, its user's; each user's balance (cents) is its start
    /// plus its ledger (dollars), with one debit per cashout and a refund exactly for each failed one.
    static func users(_ sandbox: SandboxReader, _ log: CrashLog, _ problems: inout [String]) throws {
        var mannco: [Int: JSON] = [:]
        for cashout in try sandbox.get("/sandbox/cashouts")["cashouts"]?.elements ?? [] where cashout["dialect"] == "mannco" {
            if let id = cashout["cashout_id"]?.int { mannco[id] = cashout }
        }
        for (id, user) in log.mannco.sorted(by: { $0.key < $1.key }) where mannco[id]?["merchant"]?.stringValue != user {
            problems.append("Mannco cashout \(id) of \(user) was answered 200 but is \(mannco[id]?.serializedString() ?? "gone")")
        }
        var entries: [String: [JSON]] = [:]
        for entry in try sandbox.get("/sandbox/ledger")["entries"]?.elements ?? [] {
            if let user = entry["merchant"]?.stringValue, user.hasPrefix("crash-user-") { entries[user, default: []].append(entry) }
        }
        for user in try sandbox.get("/sandbox/users")["users"]?.elements ?? [] {
            guard let id = user["id"]?.stringValue, id.hasPrefix("crash-user-") else { continue }
            let own = entries[id] ?? []
            // Cents are a dollar amount's hundredths.
            let expected = total(own, from: Money(hundredths: Int64(CrashLoad.userStartCents)), &problems).hundredths
            let balance = user["balance"]?.int.map { Int64($0) }
            if balance != expected || (balance ?? -1) < 0 {
                problems.append("user \(id): balance \(balance.map(String.init) ?? "none") cents, but the ledger says \(expected)")
            }
            var kinds: [String: Int] = [:]
            for entry in own { kinds["\(entry["cashout_id"]?.int ?? 0) \(entry["kind"]?.stringValue ?? "")", default: 0] += 1 }
            for (cashoutID, cashout) in mannco.sorted(by: { $0.key < $1.key }) where cashout["merchant"]?.stringValue == id {
                let status = cashout["status"]?.stringValue ?? ""
                let (debits, refunds) = (kinds["\(cashoutID) debit", default: 0], kinds["\(cashoutID) refund", default: 0])
                if debits != 1 || refunds != (["REJECTED", "CANCELLED"].contains(status) ? 1 : 0) {
                    problems.append("Mannco cashout \(cashoutID) is \(status) with \(debits) debits and \(refunds) refunds")
                }
            }
        }
    }

    /// Every PayoutService payout answered is there with its id (a declined Create made none);
    /// every Transfer, page submitted and Void answered is in its status; every recipient and
    /// account id answered is the merchant's, none answered twice (a lost one's id would be handed
    /// out again); DefaultMerchantId's ledger adds up, one debit per executed payout, a refund
    /// exactly for each REJECTED one and each CANCELLED one that had been debited. The number of payouts.
    static func payoutService(_ sandbox: SandboxReader, _ log: CrashLog, _ problems: inout [String]) throws -> Int {
        var payouts: [String: JSON] = [:], byID: [String: JSON] = [:]
        for payout in try sandbox.get("/sandbox/cashouts?merchant=\(prismMerchant)")["cashouts"]?.elements ?? [] {
            if let reference = payout["external_id"]?.stringValue { payouts[reference] = payout }
            if let id = payout["cashout_id"]?.int { byID[String(id)] = payout }
        }
        for (reference, id) in log.payouts.sorted(by: { $0.key < $1.key }) {
            let found = payouts[reference]
            if found?["cashout_id"]?.int.map(String.init) != id || found?["dialect"] != "prism" {
                let now = found?["cashout_id"]?.int.map(String.init) ?? "gone"
                problems.append("PayoutService payout \(reference) was answered as \(id) but is \(now)")
            }
        }
        for reference in log.declined.intersection(payouts.keys).sorted() {
            problems.append("PayoutService Create \(reference) was declined, but there is a payout \(payouts[reference]?["cashout_id"]?.int ?? 0)")
        }
        let answered: [(Set<String>, (String) -> Bool, String)] = [
            (log.transferred, { $0 != "STAGED" }, "transferred"),
            (log.submitted, { !["AWAITING_DETAILS", "EXPIRED"].contains($0) }, "submitted on its page"),
            (log.voided, { $0 == "CANCELLED" }, "voided"),
        ]
        for (ids, holds, what) in answered {
            for id in ids.sorted() {
                if let status = byID[id]?["status"]?.stringValue, !holds(status) {
                    problems.append("PayoutService payout \(id) was \(what) (200) but is \(status)")
                }
            }
        }
        let merchant = try sandbox.get("/sandbox/prism-merchants")["merchants"]?.elements.first { $0["merchant_id"]?.stringValue == prismMerchant }
        let kept = Set(["recipients", "payout_methods"].flatMap { merchant?[$0]?.objectValue?.keys.map { $0 } ?? [] })
        for given in Set(log.enrolled).subtracting(kept).sorted() {
            problems.append("\(given) was answered by CreateRecipient or EnrollDisburseAccount but \(prismMerchant) has no such id")
        }
        var given: [String: Int] = [:]
        for id in log.enrolled { given[id, default: 0] += 1 }
        for (id, count) in given.sorted(by: { $0.key < $1.key }) where count > 1 {
            problems.append("\(id) was answered \(count) times: the first was lost and its id given again")
        }
        let entries = try sandbox.get("/sandbox/ledger?merchant=\(prismMerchant)")["entries"]?.elements ?? []
        let summed = total(entries, from: startBalance, &problems)
        if let last = entries.last, last["balance_after"]?.money != summed {
            problems.append("\(prismMerchant): balance \(last["balance_after"]?.money?.description ?? "none"), but the ledger says \(summed)")
        }
        var kinds: [String: Int] = [:]
        for entry in entries { kinds["\(entry["cashout_id"]?.int ?? 0) \(entry["kind"]?.stringValue ?? "")", default: 0] += 1 }
        for (id, payout) in byID.sorted(by: { $0.key < $1.key }) {
            let status = payout["status"]?.stringValue ?? ""
            let (debits, refunds) = (kinds["\(id) debit", default: 0], kinds["\(id) refund", default: 0])
            let good = switch status {
            case "STAGED", "AWAITING_DETAILS", "EXPIRED": debits == 0 && refunds == 0
            case "CANCELLED": debits == refunds && debits <= 1
            default: debits == 1 && refunds == (status == "REJECTED" ? 1 : 0)
            }
            if !good { problems.append("PayoutService payout \(id) is \(status) with \(debits) debits and \(refunds) refunds") }
        }
        return payouts.count
    }
}
