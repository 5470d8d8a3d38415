@testable import CashoutSandbox
import Foundation
@testable import SandboxWire
@testable import SandboxRunner
@testable import SandboxContract
import Synchronization
import TestHelpers
import Testing
@testable import SandboxBank

/// `ScenarioRunner.run(_:serving:)`: what runs beside the steps calls the sandbox while they run,
/// the sandbox serves it until it ends, and how it ended is in the result and the JUnit report.
@Suite struct ScenarioRunnerServingTests {
    private static let suite = try! ScenarioLoader.load(
        Array((#"{"name": "shop", "steps": [{"create_cashout": {}, "as": "c1"}, {"advance": "20s"}, {"expect_cashout": {"ref": "c1", "status": "#
               + #""COMPLETED"}}]}"#).utf8),
        file: "shop.json", vocabulary: Sandbox.standardVocabulary)

    @Test func besideCallsTheSandboxUntilItEnds() throws {
        let status = Mutex(0)
        let result = try ScenarioRunner.run(Self.suite, serving: ScenarioRunner.Serving(threads: 2) { sandbox in
            // Once the steps have moved the clock (they end before this): the sandbox still answers, on their clock.
            Waiting.until { sandbox.clock.now.iso8601 == "2026-01-05T09:00:20Z" }
            let health = try? TestHTTP.send(method: "GET", url: "\(sandbox.baseURL)/sandbox/health")
            status.withLock { $0 = health?.status ?? 0 }
            let said = health.map { String(decoding: $0.body, as: UTF8.self) } ?? ""
            return CommandOutcome(command: "app", ending: .exited(0), output: said)
        })
        #expect(status.withLock { $0 } == 200)
        #expect(result.passed)
        #expect(result.command?.output.contains(#""now":"2026-01-05T09:00:20Z""#) == true)
    }

    @Test func aFailedCommandFailsTheScenarioAndTheReportSaysIt() throws {
        let result = try ScenarioRunner.run(Self.suite, serving: ScenarioRunner.Serving { _ in
            CommandOutcome(command: "make check", ending: .exited(3), output: "<ok> & \"done\"\u{1}\n")
        })
        #expect(result.failure == nil)
        #expect(!result.passed)
        #expect(result.command?.failure == "command exited with status 3")
        let xml = JUnitReport.xml([result])
        #expect(xml.contains(#"failures="1""#))
        // The app's own case fails, beside the passing cases of the steps.
        #expect(xml.contains(#"<testcase classname="shop" name="the app" file="shop.json" time="0.000">"#))
        #expect(xml.contains(#"<failure message="command exited with status 3" type="CommandFailed">command exited with status 3: make "#
                             + #"check</failure>"#))
        #expect(result.cases.map(\.line).last == "FAIL the app: command exited with status 3")
        #expect(xml.contains("<system-out>&lt;ok&gt; &amp; &quot;done&quot;\u{FFFD}\n</system-out>"))
        #expect(CommandOutcome(command: "x", ending: .signalled(15), output: "").failure == "command was killed by signal 15 (SIGTERM)")
    }
}
