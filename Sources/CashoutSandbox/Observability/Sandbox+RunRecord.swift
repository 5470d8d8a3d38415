import FoundationEssentials
import SandboxWire
package import SandboxSupport
import SandboxContract

// A finished run's record (the Testing your app guide, "A finished run in the dashboard"): what a
// sandbox held when a run beside an app ended, written beside the files `explore` writes
// (NAME.run) and by `test --serve --timeline`, and put back in force in a sandbox of its own by
// `cashout-sandbox show`, so that the dashboard shows the run as it ended (its cashouts, the
// requests with their bodies, the webhooks, the report's findings, the timelines with the clock's
// stops) without running anything again.
//
// One JSON document: the scenario as it ran, the bank's snapshot (`GET /sandbox/snapshot`'s file,
// base64), the request log with every entry's bytes (`RequestLog.recordJSON()`), the timeline
// recorder's real times and stops (`TimelineRecorder.recordJSON()`), the app's ledger as last
// read, reconciled again when the record is put in force, and the suite's progress with its cases
// (`GET /sandbox/suite`).

extension Sandbox {
    /// What the record's `format` says.
    static let runRecordFormat = "cashout-sandbox run record 1"

    /// The record of this sandbox as it is now, for `scenario` (the scenario it ran, as JSON).
    package func runRecord(scenario: JSON) -> JSON {
        let snapshot = respond(to: HTTPRequest(method: "GET", target: "/sandbox/snapshot"))
        let ledger = reports.reconciliation.last.map { reconciliation -> JSON in
            ["ledger": reconciliation.ledger, "source": .string(reconciliation.source),
             "account": reconciliation.account.map(JSON.string) ?? .null, "read_at": .number(String(reconciliation.readAt))]
        }
        return ["format": .string(Self.runRecordFormat), "base_url": .string(baseURL.absoluteString), "scenario": scenario,
                "snapshot": .string(Base64.encode(snapshot.body)), "requests": requestLog.recordJSON(), "recorder": timelines.recordJSON(),
                "reconciliation": ledger ?? .null, "suite": suite.json ?? .null]
    }

    /// Puts `record` (``runRecord(scenario:)``) in force in this sandbox, which serves nothing else yet: its bank, its
    /// requests, its timelines' real times and stops, its last reconciliation. What is wrong with it, nil when it is in force.
    package func restore(runRecord record: JSON) -> String? {
        guard record["format"]?.stringValue == Self.runRecordFormat else {
            return "not a run record (\"format\": \"\(Self.runRecordFormat)\" expected)"
        }
        guard let snapshot = record["snapshot"]?.stringValue.flatMap(Base64.decode) else { return "its snapshot is not base64" }
        let restored = respond(to: HTTPRequest(method: "PUT", target: "/sandbox/snapshot",
                                               headers: ["Content-Type": "application/vnd.cashout-sandbox.snapshot"], body: snapshot))
        guard restored.status == 200 else { return "its snapshot does not restore: \(restored.bodyText)" }
        // The run's sinks are this sandbox's own: notifications to them were not the app's.
        if let base = record["base_url"]?.stringValue, let host = base.split(separator: "/").dropFirst().first { sender.learn(host: String(host)) }
        let shift = timelines.restore(record: record["recorder"] ?? .null)
        // The suite's steps and cases as the run ended (a record written before cases had none: its suite answers 404).
        if let progress = record["suite"], progress != .null { suite.restore(progress) }
        requestLog.restore(record: record["requests"] ?? .null, shift: shift)
        if let reconciliation = record["reconciliation"], let ledger = reconciliation["ledger"], ledger != .null,
           case .success(var made) = reconcile(ledger: ledger, source: reconciliation["source"]?.stringValue ?? "the run's ledger",
                                               account: reconciliation["account"]?.stringValue) {
            made.readAt = RecordTimes.real(reconciliation["read_at"], shift: shift) ?? made.readAt
            reports.keep(made)
        }
        return nil
    }
}
