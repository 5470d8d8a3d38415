package import SandboxBank
package import SandboxSupport
import SandboxContract

// Payouts' timelines (the Testing your app guide, "Why a run failed"), as `test --serve` and
// `explore` print them under a failure and write them as a page; the admin API's
// `GET /sandbox/cashouts/{id}/timeline` makes the same from the same parts.

extension Sandbox {
    /// The timeline of `ids`, with `findings` judged at `judged` (nil: not judged).
    package func timeline(of ids: [Int], title: String, findings: [Timeline.Finding], judged: (at: VirtualTime, real: Int64)?) -> Timeline {
        let sources = Timeline.Sources(bank: bank, requestLog: requestLog, dialects: dialects, recorder: timelines,
                                       reconciliation: reports.reconciliation.last)
        return Timeline.make(of: ids, title: title, from: sources, findings: findings, judged: judged)
    }

    /// The integration report's error findings, one per occurrence; none when the report cannot be made.
    package func reportErrors() -> [Timeline.Finding] {
        reportWithErrors().errors
    }

    /// The integration report as `integrationReport()` answers it, and its error findings, one per occurrence (none
    /// when the report cannot be made), made once.
    package func reportWithErrors() -> (json: JSON, errors: [Timeline.Finding]) {
        switch IntegrationReport.make(bank: bank, requestLog: requestLog, sender: sender, dialects: dialects, thresholds: reports.thresholds,
                                      reconciliation: reports.reconciliation.last, at: bank.clock.now) {
        case .success(let report): (report.json, Timeline.errors(of: report))
        case .failure: (integrationReport().json, [])
        }
    }
}
