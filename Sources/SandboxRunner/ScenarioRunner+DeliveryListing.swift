import CashoutSandbox
import SandboxBank
import SandboxContract

// What a failing expect_webhooks shows under its message: every delivery of the notifications it
// looked at, so that a count that differs explains itself (a retry, a redelivery, one not sent).

extension ScenarioRunner {
    /// Every delivery attempt of `notifications`, in time order, one line each, indented:
    ///
    ///     2026-01-05T09:05:00Z  DELIVERED  #1         answered 500
    ///     2026-01-05T09:10:00Z  DELIVERED  #2, retry  answered 200
    ///
    /// The columns are the attempt's virtual time, the cashout (its `as` name, or its id) when the
    /// notifications are of several, the status change that caused it (with its API's own word, as
    /// `statusText` writes it), the attempt's number and whether it was a retry or a redelivery
    /// asked for by hand, then the receiver's answer or why there was none, and last what webhook chaos made of
    /// it (`chaos: duplicate of attempt 1, 10s after it`), if anything. A notification
    /// without an attempt is a line too, at its change's time. `""` when there is nothing to list.
    func deliveryListing(_ notifications: [StatusNotification]) -> String {
        let several = Set(notifications.map(\.payoutID)).count > 1
        let names = Dictionary(references.map { ($0.value.cashoutID, $0.key) }, uniquingKeysWith: min)
        var rows: [(at: VirtualTime, notification: Int, number: Int, cells: [String])] = []
        for notification in notifications {
            let cashout = several ? [names[notification.payoutID] ?? "cashout \(notification.payoutID)"] : []
            func row(at: VirtualTime, number: Int, attempt: String, answer: String, chaos: ChaosMark? = nil) {
                let mark = chaos.map { ["chaos: \($0.summary)"] } ?? []
                rows.append((at, notification.id, number, [at.iso8601] + cashout + [statusText(notification), attempt, answer] + mark))
            }
            if notification.attempts.isEmpty {
                row(at: notification.changedAt, number: 0, attempt: "",
                    answer: notification.nextAttemptAt.map { "not sent yet: due at \($0.iso8601)" } ?? "not sent: no notification URL")
            }
            for attempt in notification.attempts {
                let kind = attempt.manual ? ", redelivered" : attempt.isRetry(in: notification) ? ", retry" : ""
                row(at: attempt.at, number: attempt.number, attempt: "#\(attempt.number)\(kind)",
                    answer: attempt.outcome.status.map { "answered \($0)" } ?? "no answer: \(attempt.outcome.error ?? "none recorded")",
                    chaos: attempt.chaos)
            }
        }
        rows.sort { ($0.at, $0.notification, $0.number) < ($1.at, $1.notification, $1.number) }
        // Every column but the last padded to its widest cell.
        let widths = rows.reduce(into: [Int]()) { widths, row in
            for (column, cell) in row.cells.dropLast().enumerated() {
                if column == widths.count { widths.append(0) }
                widths[column] = max(widths[column], cell.count)
            }
        }
        return rows.map { row in
            "  " + row.cells.enumerated().map { column, cell in
                column < widths.count ? cell + String(repeating: " ", count: widths[column] - cell.count) : cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// The status a notification reports, by the sandbox's name and, where its API words it
    /// otherwise, that word too: `DELIVERED (INITIATED)`.
    func statusText(_ notification: StatusNotification) -> String {
        statusText(notification.status, dialect: notification.dialect)
    }

    /// A status of a payout of `dialect`, as `statusText(_:)` writes a notification's.
    func statusText(_ status: PayoutStatus, dialect: String) -> String {
        let name = status.name
        guard let word = sandbox.dialects[dialect]?.statusWord(status), word != name else { return name }
        return "\(name) (\(word))"
    }
}
