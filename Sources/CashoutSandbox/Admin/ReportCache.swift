import SandboxBank
import SandboxWire
package import SandboxContract
import SandboxSupport
import Synchronization

/// Where `GET /sandbox/report` is made, and the answers already made, by what they were made from.
///
/// A report reads the whole request log: over a large one it takes a while, so it is made by
/// `worker`, off the event loops and below their CPU priority, where no other client waits for it
/// (verifications, which read the log too, are made there as well). One at a time: a second
/// asker of the same report, queued behind the first, finds it made.
///
/// A report is a function of the log's entries, the bank's state and the virtual time, so
/// their versions name it (``Version``, the answer's `ETag`): an asker that sends its `ETag` back
/// in `If-None-Match` is answered 304 while none of them moved, as the dashboard does every poll.
/// On a manual clock that holds until a request or a bank event comes; on a real one the time
/// moves, and each report is made anew. The thresholds it judges by (the suite's, or the query's)
/// are part of what names it.
///
/// It keeps the thresholds of the scenario setup in force (its `report` key), which a query
/// without its own uses.
package final class ReportCache: Sendable {
    /// What a report was made from.
    struct Version: Equatable {
        let lastRequest: Int
        let requestLogClears: Int
        let bankChanges: Int
        let now: VirtualTime
        /// How many reconciliations were kept (``ReportCache/keep(_:)``).
        let reconciliations: Int

        /// Read before the evidence, so that an answer is never older than its version says.
        init(requestLog: RequestLog, bank: Bank, reports: ReportCache) {
            (lastRequest, requestLogClears) = requestLog.version
            bankChanges = bank.changes
            now = bank.clock.now
            reconciliations = reports.reconciliation.count
        }

        /// `"r12.0-345-1767603600000-1"` (the last number counts the reconciliations), quoted as RFC 9110 §8.8.3 writes an entity tag; with
        /// thresholds other than the standard ones, `-t2m.20.1m` (follow-up window, polling limit and window) before the quote.
        func tag(_ thresholds: ReportThresholds) -> String {
            let judged = thresholds == .standard ? ""
                : "-t\(DurationText.format(thresholds.followUpWithin)).\(thresholds.pollingLimit).\(DurationText.format(thresholds.pollingPer))"
            return "\"r\(lastRequest).\(requestLogClears)-\(bankChanges)-\(now.milliseconds)-\(reconciliations)\(judged)\""
        }
    }

    /// What an answer is kept by: the account asked for (nil: every account's), and the thresholds.
    private struct Key: Hashable {
        let account: String?
        let thresholds: ReportThresholds
    }

    private struct Made {
        let version: Version
        let response: HTTPResponse
    }

    let worker = BackgroundWorker(name: "cashout-sandbox.report")
    /// The last answer made for each `?account=` (nil for every account's) and thresholds; a handful at most.
    private let made = Mutex<[Key: Made]>([:])
    private static let kept = 16
    private let reconciled = Mutex<(last: Reconciliation?, count: Int)>((nil, 0))

    /// The last reconciliation of an app's ledger, which reports show (`ledger_mismatch`), and how
    /// many were kept: a report's version counts them.
    package var reconciliation: (last: Reconciliation?, count: Int) { reconciled.withLock { $0 } }

    /// Keeps `reconciliation` as the last one (nil: forgets it, as a reset does).
    func keep(_ reconciliation: Reconciliation?) {
        reconciled.withLock { $0 = (reconciliation, $0.count + 1) }
    }
    private let setThresholds: Mutex<ReportThresholds>

    init(thresholds: ReportThresholds = .standard) {
        setThresholds = Mutex(thresholds)
    }

    /// The thresholds of the scenario setup in force: what a report judges by unless asked otherwise.
    var thresholds: ReportThresholds {
        get { setThresholds.withLock { $0 } }
        set { setThresholds.withLock { $0 = newValue } }
    }

    /// The answer already made for `account` by `thresholds` at `version`, if any.
    func answer(account: String?, thresholds: ReportThresholds, at version: Version) -> HTTPResponse? {
        made.withLock { $0[Key(account: account, thresholds: thresholds)] }.flatMap { $0.version == version ? $0.response : nil }
    }

    /// Keeps an answer made at `version`.
    func keep(_ response: HTTPResponse, account: String?, thresholds: ReportThresholds, at version: Version) {
        made.withLock { made in
            if made.count >= Self.kept { made.removeAll() }
            made[Key(account: account, thresholds: thresholds)] = Made(version: version, response: response)
        }
    }

    /// Whether an `If-None-Match` value names `tag`: a list of tags, weak ones compared weakly (RFC 9110 §13.1.2).
    static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            var text = candidate
            while text.first == " " || text.first == "\t" { text = text.dropFirst() }
            while text.last == " " || text.last == "\t" { text = text.dropLast() }
            return (text.hasPrefix("W/") ? text.dropFirst(2) : text) == tag
        }
    }
}
