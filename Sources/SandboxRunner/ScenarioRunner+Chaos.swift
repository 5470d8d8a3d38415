import CashoutSandbox
import SandboxBank
import SandboxContract

// What receivers did with webhook chaos: `expect_deliveries` looks at the answers the sandbox
// recorded, `expect_sink` at what a built-in sink did. A failure lists what there was, so a
// mismatch explains itself.

extension ScenarioRunner {
    func expectDeliveries(_ expected: Step.DeliveriesExpectation) -> String? {
        let payoutID: Int?
        do { payoutID = try cashoutID(expected.ref, for: "expect_deliveries") } catch { return error.message }
        let subject = "expect_deliveries" + (expected.ref.map { " \($0)" } ?? "") + (expected.status.map { " \($0)" } ?? "")
            + (expected.chaos.map { " (chaos \($0))" } ?? "")
        let ofStatus = { (notification: StatusNotification) in
            expected.status.map { self.isStatus($0, notification.status, dialect: notification.dialect) } ?? true
        }
        // Counted in place, the first answer that is not as expected kept as they go (in the order
        // the attempts were made): a million cashouts' notifications are copied only to list them.
        var (attempts, chosen) = (0, 0)
        var misanswered: (at: VirtualTime, order: Int, notification: StatusNotification, attempt: DeliveryAttempt)?
        sandbox.bank.forEachNotification(payoutID: payoutID) { notification in
            guard ofStatus(notification) else { return }
            for attempt in notification.attempts {
                defer { attempts += 1 }
                switch expected.chaos {
                case nil: break
                case "none": guard attempt.chaos == nil else { continue }
                case let kind?: guard attempt.chaos?.kind.rawValue == kind else { continue }
                }
                chosen += 1
                if let answered = expected.answered, !answered.matches(attempt.outcome.status),
                   misanswered.map({ (attempt.at, attempts) < ($0.at, $0.order) }) ?? true {
                    misanswered = (attempt.at, attempts, notification, attempt)
                }
            }
        }
        // What there was, as a failing expect_webhooks lists it.
        let listed = {
            attempts == 0
                ? "; there were no deliveries" : "\n" + self.deliveryListing(self.sandbox.bank.notifications(payoutID: payoutID).filter(ofStatus))
        }
        if let count = expected.count, chosen != count {
            return "\(subject): expected \(count) \(count == 1 ? "delivery" : "deliveries"), got \(chosen)\(listed())"
        }
        guard let answered = expected.answered else { return nil }
        if chosen == 0 { return "\(subject): expected deliveries answered \(answered.description), got none\(listed())" }
        if let (_, _, notification, attempt) = misanswered {
            let answer = attempt.outcome.status.map { "answered \($0)" } ?? "got no answer (\(attempt.outcome.error ?? "none recorded"))"
            return "\(subject): expected every answer \(answered.description), but attempt #\(attempt.number) of webhook \(notification.id) "
                + "(\(notification.status.name), \(attempt.at.iso8601)) \(answer)\(listed())"
        }
        return nil
    }

    func expectSink(_ expected: Step.SinkExpectation) -> String? {
        let payoutID: Int?
        do { payoutID = try cashoutID(expected.ref, for: "expect_sink") } catch { return error.message }
        let subject = "expect_sink \(expected.name)" + (expected.ref.map { " \($0)" } ?? "") + (expected.status.map { " \($0)" } ?? "")
        // Counted over every request the sink received; a failure lists the last ones it keeps.
        let counts = sandbox.sinks.counts(expected.name) { tally in
            if let payoutID, tally.payoutID != payoutID { return false }
            guard let wanted = expected.status else { return true }
            guard let status = tally.status, let id = tally.payoutID, let payout = sandbox.bank.payout(id: id) else { return false }
            return isStatus(wanted, status, dialect: payout.dialect)
        }
        let wanted: [(String, Int?, Int)] = [
            ("received", expected.received, counts.values.reduce(0, +)),
            ("processed", expected.processed, counts[.processed] ?? 0),
            ("duplicates", expected.duplicates, counts[.duplicate] ?? 0),
            ("refused", expected.refused, counts[.refused] ?? 0),
            ("failed", expected.failed, counts[.failed] ?? 0),
        ]
        guard let (name, expectedCount, got) = wanted.first(where: { $0.1 != nil && $0.1 != $0.2 }) else { return nil }
        let (requests, total) = (sandbox.sinks.received(expected.name), sandbox.sinks.receivedCount(expected.name))
        let listed = requests.isEmpty
            ? "it received nothing" : (total > requests.count ? "the last \(requests.count) of \(total) requests: " : "requests: ")
            + requests.map { received in
                let reading = sandbox.sinks.read(received)
                let about = reading.map { "cashout \($0.payoutID) \($0.status?.name ?? "?")" } ?? "not a notification"
                return "\(received.at.iso8601) \(about): \(received.answered) \(received.verdict.rawValue)"
                    + (received.reason.map { " (\($0))" } ?? "")
            }.joined(separator: "; ")
        return "\(subject): expected \(expectedCount!) \(name), got \(got); \(listed)"
    }

    /// The id of the cashout named `ref` (nil without a name); a name no cashout has fails `action`.
    func cashoutID(_ ref: String?, for action: String) throws(StepFailure) -> Int? {
        guard let ref else { return nil }
        guard let reference = references[ref] else { throw StepFailure(message: "\(action): no cashout named \"\(ref)\"") }
        return reference.cashoutID
    }

    /// Whether `wanted` (the sandbox's name, or the payout's API's word) names `status`.
    func isStatus(_ wanted: String, _ status: PayoutStatus, dialect: String) -> Bool {
        wanted == status.name || wanted == sandbox.dialects[dialect]?.statusWord(status)
    }
}
