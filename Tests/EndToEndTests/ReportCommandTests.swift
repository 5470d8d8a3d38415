import Foundation
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// `cashout-sandbox report URL` against a `serve --port 0` child, as a CI job runs it after the
/// app's tests: 0 for a report without errors, 1 with the findings printed, the JSON as the
/// sandbox answered it with `--json`, and 2 (with the help's name) when there is no report to read
/// or the command line is wrong.
@Suite struct ReportCommandTests {
    /// A sandbox on a free port and a manual clock, with `options`, and its URL.
    private func serve(_ options: [String] = [], under wrapper: [String] = []) throws -> (RunningBinary, String) {
        let server = try RunningBinary(["serve", "--port", "0", "--host", "127.0.0.1", "--clock", "manual", "--log-format", "off"] + options,
                                       under: wrapper)
        return (server, try #require(server.url))
    }

    /// A D24 create refused for its pass: a `signature_errors` finding for sandbox_login.
    private func sendRefused(to url: String, headers: HTTPHeaders = [:]) throws {
        let refused = try TestHTTP.send(method: "POST", url: url + "/v3/cashout", headers: headers,
                                        body: Array(#"{"login":"sandbox_login","pass":"wrong"}"#.utf8))
        #expect(refused.status == 401)
    }

    /// What the command says the report judged once `exercised` checks of sandbox_login's were:
    /// `8 of 9 checks not exercised`, counted from the report the sandbox answers (its `checks`, each
    /// judged once in the account's lists), not from a list of this test's.
    private func judged(_ url: String, exercised: Int) throws -> String {
        let report = try JSON.parse(try TestHTTP.send(method: "GET", url: url + "/sandbox/report?account=sandbox_login").body)
        let checks = try #require(report["checks"]?.integerValue)
        let account = try #require(report["accounts"]?[0])
        let lists = ["passed", "not_exercised", "findings"].map { account[$0]?.arrayValue?.count ?? 0 }
        #expect(lists.reduce(0, +) == checks && report["not_exercised"]?.integerValue == checks - exercised, "\(report)")
        return "\(checks - exercised) of \(checks) checks not exercised"
    }

    @Test func aCleanRunExitsZero() throws {
        let (server, url) = try serve()
        let (empty, emptyOut, _) = try RunningBinary.run(["report", url])
        #expect(empty == 0)
        #expect(emptyOut == "No account has made a request or has a cashout: nothing to report.\n\n0 errors, 0 warnings\n")
        #expect(try SignedCreate.send(to: url, externalID: "report-clean").status == 200)
        // With or without a trailing slash.
        let (status, out, err) = try RunningBinary.run(["report", url + "/"])
        #expect(status == 0, "\(err)")
        // A clean report that exercised one check of D24's says so, on its account's line and last.
        let summary = try judged(url, exercised: 1)
        #expect(out.hasPrefix("sandbox_login (d24; 1 request, 1 cashout): ok; \(summary)\n  passed: signature_errors\n  not exercised: "),
                "\(out)")
        #expect(out.hasSuffix("\n\n0 errors, 0 warnings; \(summary)\n"))
        #expect(server.terminate() == 0)
    }

    @Test func anErrorFindingExitsOneAndIsPrinted() throws {
        let (server, url) = try serve()
        try sendRefused(to: url)
        let (status, out, _) = try RunningBinary.run(["report", url])
        #expect(status == 1)
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
        let summary = try judged(url, exercised: 1)
        #expect(lines.first == "sandbox_login (d24; 1 request, 0 cashouts): 1 error, 0 warnings; \(summary)")
        #expect(lines.contains("  error   signature_errors"), "\(out)")
        #expect(lines.contains { $0.hasPrefix("    - 1 request refused: wrong_pass: ") }, "\(out)")
        #expect(lines.contains { $0.hasPrefix("    evidence: #1 POST /v3/cashout at ") && $0.hasSuffix(": 401") }, "\(out)")
        #expect(lines.contains { $0.hasPrefix("    advice: ") })
        #expect(lines.contains("  passed: none"))
        #expect(out.hasSuffix("\n\n1 error, 0 warnings; \(summary)\n"))
        #expect(lines.allSatisfy { $0.count <= 80 || $0 == lines[0] }, "\(out)")
        #expect(server.terminate() == 0)
    }

    /// `--json` prints the answer's body as it came; `--account` asks for one account's report.
    @Test func jsonIsTheSandboxsAnswer() throws {
        let (server, url) = try serve()
        try sendRefused(to: url)
        let answer = try TestHTTP.send(method: "GET", url: url + "/sandbox/report?account=sandbox_login")
        let (status, out, _) = try RunningBinary.run(["report", url, "--json", "--account", "sandbox_login"])
        #expect(status == 1)
        #expect(out == answer.bodyText + "\n")
        let report = try JSON.parse(Array(out.utf8))
        #expect(report["ok"]?.boolValue == false)
        #expect(report["accounts"]?[0]?["findings"]?[0]?["id"]?.stringValue == "signature_errors")
        #expect(server.terminate() == 0)
    }

    /// No report to read: 2, the reason on standard error, and where the help is.
    @Test func noReportExitsTwoWithTheSandboxsMessage() throws {
        let hint = "See 'cashout-sandbox report --help'.\n"
        let (unreachable, _, unreachableErr) = try RunningBinary.run(["report", "http://127.0.0.1:1"])
        #expect(unreachable == 2)
        #expect(unreachableErr.hasPrefix("error: cannot reach the sandbox at http://127.0.0.1:1: connection failed: "), "\(unreachableErr)")
        #expect(unreachableErr.hasSuffix(hint))

        let (server, url) = try serve()
        let (unknown, out, unknownErr) = try RunningBinary.run(["report", url, "--account", "no body"])
        #expect(unknown == 2 && out.isEmpty)
        #expect(unknownErr == "error: no report (HTTP 404): no account \"no body\": the sandbox has none of that id, and no request named "
                              + "it\n" + hint)
        #expect(server.terminate() == 0)

        let (withoutJournal, journalURL) = try serve(["--request-journal", "0"])
        let (unknowable, _, unknowableErr) = try RunningBinary.run(["report", journalURL])
        #expect(unknowable == 2)
        #expect(unknowableErr.hasPrefix("error: no report (HTTP 409): the request journal is off (--request-journal 0)"), "\(unknowableErr)")
        #expect(withoutJournal.terminate() == 0)
    }

    /// `--follow-up-within`, `--polling-limit` and `--polling-per` judge by other thresholds; a bad
    /// one is the sandbox's 400, exit 2.
    @Test func theThresholdsAreTheCommandLinesWhenGiven() throws {
        let (server, url) = try serve()
        #expect(try SignedCreate.send(to: url, externalID: "report-polled").status == 200)
        let (status, out,
             err) = try RunningBinary.run(["report", url, "--json", "--follow-up-within", "2m", "--polling-limit", "20", "--polling-per", "30s"])
        #expect(status == 0, "\(err)")
        let report = try JSON.parse(Array(out.utf8))
        #expect(report["thresholds"] == ["follow_up_within": "2m", "status_polling": ["limit": 20, "per": "30s"]])
        let (bad, badOut, badErr) = try RunningBinary.run(["report", url, "--polling-limit", "0"])
        #expect(bad == 2 && badOut.isEmpty)
        #expect(badErr == "error: no report (HTTP 400): polling_limit: expected a whole number from 1 to 1000000, got \"0\"\n"
                    + "See 'cashout-sandbox report --help'.\n")
        #expect(server.terminate() == 0)
    }

    /// The admin token as `serve` takes it: `--admin-token`, else $CASHOUT_SANDBOX_ADMIN_TOKEN.
    @Test func theAdminTokenIsSent() throws {
        let (server, url) = try serve(["--admin-token", "report-token"])
        try sendRefused(to: url)
        let (refused, _, refusedErr) = try RunningBinary.run(["report", url])
        #expect(refused == 2)
        #expect(refusedErr.hasPrefix("error: the sandbox wants its admin token (HTTP 401): pass --admin-token TOKEN or set "
                                     + "$CASHOUT_SANDBOX_ADMIN_TOKEN\n"))
        #expect(try RunningBinary.run(["report", url, "--admin-token", "report-token"]).0 == 1)
        let (wrong, _, wrongErr) = try RunningBinary.run(["report", url, "--admin-token", "other"])
        #expect(wrong == 2 && wrongErr.hasPrefix("error: no report (HTTP 401): invalid admin token"), "\(wrongErr)")
        let fromEnvironment = try RunningBinary(["report", url], under: ["/usr/bin/env", "CASHOUT_SANDBOX_ADMIN_TOKEN=report-token"])
        #expect(fromEnvironment.exitStatus() == 1)
        #expect(fromEnvironment.stdout.contains("  error   signature_errors\n"))
        #expect(server.terminate() == 0)
    }

    @Test(arguments: [
        (["report"], "report needs the sandbox's URL, such as http://127.0.0.1:8080"),
        (["report", "localhost:8080"],
         "expected the sandbox's URL, an http URL such as http://127.0.0.1:8080 (it serves no TLS), got 'localhost:8080'"),
        (["report", "https://127.0.0.1:8080"],
         "expected the sandbox's URL, an http URL such as http://127.0.0.1:8080 (it serves no TLS), got 'https://127.0.0.1:8080'"),
        (["report", "http://a", "http://b"], "unexpected argument 'http://b' for report"),
        (["report", "http://a", "--acount", "x"], "unknown option '--acount' for report; did you mean '--account'?"),
        (["report", "http://a", "--json=yes"], "option '--json' takes no value"),
        (["report", "http://a", "--account"], "option '--account' needs a value (ID)"),
    ] as [([String], String)])
    func usageErrors(words: [String], message: String) throws {
        let (status, out, err) = try RunningBinary.run(words)
        #expect(status == 2 && out.isEmpty)
        #expect(err == "error: \(message)\nSee 'cashout-sandbox report --help'.\n")
    }
}
