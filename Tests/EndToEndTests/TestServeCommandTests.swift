import Foundation
import Glibc
@testable import SandboxSupport
import TestHelpers
import Testing
@testable import SandboxWire

/// `test SUITE --serve [--port P] [--exec CMD]`: a suite's steps against a sandbox on a real port,
/// beside a real shell command that calls it over HTTP; the command's status and output in the
/// result, the JUnit report and the exit status.
@Suite struct TestServeCommandTests {
    /// A folder with `files`; the path of each.
    private func files(_ files: [String: String]) throws -> [String: String] {
        let folder = NSTemporaryDirectory() + "test-serve-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var paths: [String: String] = [:]
        for (name, text) in files {
            try text.write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8)
            paths[name] = "\(folder)/\(name)"
        }
        return paths
    }

    private static let passing = #"""
        {"name": "shop", "steps": [{"create_cashout": {}, "as": "c1"}, {"advance": "20s"}, {"expect_cashout": {"ref": "c1", "status": "COMPLETED"}}]}
        """#
    private static let failing = #"""
        {"name": "shop", "steps": [{"create_cashout": {}, "as": "c1"}, {"expect_cashout": {"ref": "c1", "status": "COMPLETED"}}]}
        """#

    /// The app: the sandbox answers at `$CASHOUT_SANDBOX_URL` (on the suite's manual clock, moved
    /// by its steps) and `$CASHOUT_SANDBOX_D24_LOGIN` is the default merchant's login.
    private static let app = #"""
        curl -sf "$CASHOUT_SANDBOX_URL/sandbox/health" | grep -q '"mode":"manual"' || exit 10; \
        test "$CASHOUT_SANDBOX_D24_LOGIN" = sandbox_login || exit 11; \
        echo "app <ok> & done"
        """#

    @Test func aCommandThatExitsZeroPasses() throws {
        let suite = try #require(try files(["suite.json": Self.passing])["suite.json"])
        let (status, out, err) = try RunningBinary.run(["test", suite, "--serve", "--port", "0", "--exec", Self.app])
        #expect(status == 0, "\(out)\(err)")
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("serving shop on http://127.0.0.1:") == true)
        #expect(lines.dropFirst() == ["app <ok> & done", "PASS shop (\(suite), 3 steps)", "  PASS c1 (steps 1, 3)", "  PASS other steps (step 2)",
                                      "  PASS the app", "  3 of 3 cases passed", "1 passed, 0 failed"])
    }

    @Test func aCommandThatExitsThreeFailsWithItsStatusAndOutput() throws {
        let paths = try files(["suite.json": Self.passing])
        let suite = try #require(paths["suite.json"])
        let junit = suite.replacingOccurrences(of: "suite.json", with: "report.xml")
        let command = Self.app + "; echo 'to stderr' >&2; exit 3"
        let (status, out, err) = try RunningBinary.run(["test", suite, "--serve", "--port", "0", "--exec", command, "--junit", junit])
        #expect(status == 1)
        #expect(err.contains("to stderr\n"))
        #expect(out.hasSuffix("""
            app <ok> & done
            PASS shop (\(suite), 3 steps)
              PASS c1 (steps 1, 3)
              PASS other steps (step 2)
              FAIL the app: command exited with status 3
              2 of 3 cases passed
            FAIL shop (\(suite)): command exited with status 3: \(command)
            0 passed, 1 failed

            """), "\(out)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"failures="1""#))
        #expect(xml.contains(#"name="the app" file="\#(suite)""#))
        #expect(xml.contains(#"<failure message="command exited with status 3" type="CommandFailed">command exited with status 3: "#))
        // Both streams, each line as it came (two pipes: which of them is read first may vary).
        let output = try #require(xml.split(separator: "<system-out>").last?.split(separator: "</system-out>").first)
        #expect(output.split(separator: "\n").sorted() == ["app &lt;ok&gt; &amp; done", "to stderr"], "\(xml)")
    }

    /// The app makes `GET /v3/ready` (which step 1 waits for), then waits for the clock for ever;
    /// step 2 fails. (`trap` makes it ignore SIGTERM, as a driver that handles it badly does.)
    private static func stopped(_ trap: String) -> String {
        #"\#(trap)curl -s "$CASHOUT_SANDBOX_URL/v3/ready" > /dev/null; echo waiting; sleep \#(10 * Waiting.seconds)"#
    }

    private static let passingAfterTheApp = #"""
        {"name": "shop", "steps": [{"wait_for_request": {"request": {"path": "/v3/ready"}}}]}
        """#

    private static let failingAfterTheApp = #"""
        {"name": "shop", "steps": [{"wait_for_request": {"request": {"path": "/v3/ready"}}}, {"expect_ledger": {"merchant": "sandbox_login", \#
        "count": 5}}]}
        """#

    /// A failed step does not end the run: the steps after it run, then the command gets SIGTERM (an app waiting for the
    /// clock would wait for ever), and the run fails by that step; the app's case passes, the run having stopped it.
    @Test func aFailedRunStopsTheCommandOnceTheStepsAreOver() throws {
        let paths = try files(["suite.json": Self.failingAfterTheApp])
        let suite = try #require(paths["suite.json"])
        let junit = suite.replacingOccurrences(of: "suite.json", with: "report.xml")
        let command = Self.stopped("")
        let (status, out, _) = try RunningBinary.run(["test", suite, "--serve", "--port", "0", "--exec", command, "--junit", junit])
        #expect(status == 1)
        // (Its "waiting" may or may not come first: the step can fail before the shell gets to it.)
        #expect(out.hasSuffix("""
            FAIL shop (\(suite)): step 2: expect_ledger sandbox_login: expected 5 entries, got 0
              FAIL other steps: step 2: expect_ledger sandbox_login: expected 5 entries, got 0
              PASS the app
              1 of 2 cases passed
            0 passed, 1 failed

            """), "\(out)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"failures="1""#) && !xml.contains("CommandFailed"), "\(xml)")
    }

    /// A command that ignores SIGTERM is killed `--grace` later.
    @Test func aCommandThatIgnoresSIGTERMIsKilledAfterTheGrace() throws {
        let suite = try #require(try files(["suite.json": Self.failingAfterTheApp])["suite.json"])
        let command = Self.stopped("trap '' TERM; ")
        let (status, out, _) = try RunningBinary.run(["test", suite, "--serve", "--port", "0", "--grace", "100ms", "--exec", command])
        #expect(status == 1)
        #expect(out.contains("NOTE shop (\(suite)): command was killed by signal 9 (SIGKILL): stopped once the steps were over, step 2 "
                             + "having failed (it ignored SIGTERM for --grace): \(command)\n"), "\(out)")
    }

    /// An app that ignores SIGTERM, under a shell that does not: the shell ends at the SIGTERM, and
    /// the app is killed with the rest of the command's process group `--grace` later. Nothing the
    /// command started outlives the run, whether a step failed or the command ended by itself.
    @Test func nothingTheCommandStartedOutlivesTheRun() throws {
        for (suite, last) in [(Self.failingAfterTheApp, "app; true"), (Self.passingAfterTheApp, "true")] {
            let path = try #require(try files(["suite.json": suite])["suite.json"])
            let pids = path.replacingOccurrences(of: "suite.json", with: "pids")
            // The shell waits for python (not exec'd: a command follows), which ignores SIGTERM; a
            // second python is left in the background, the way a server started with & is.
            let app = #"python3 -c 'import os, signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "#
                + #"open("\#(pids)", "a").write(f"{os.getpid()}\n"); time.sleep(600)'"#
            let command = #"\#(app) & until [ -s \#(pids) ]; do sleep 0.01; done; curl -s "$CASHOUT_SANDBOX_URL/v3/ready" > /dev/null; "#
                + last.replacingOccurrences(of: "app", with: app)
            _ = try RunningBinary.run(["test", path, "--serve", "--port", "0", "--grace", "200ms", "--exec", command])
            let started = try String(contentsOfFile: pids, encoding: .utf8).split(separator: "\n").compactMap { pid_t($0) }
            #expect(!started.isEmpty)
            for pid in started {
                // Gone, or a zombie its reaper has yet to collect.
                // (Read as a stream: a file of /proc says its size is 0.)
                let stat = FileHandle(forReadingAtPath: "/proc/\(pid)/stat").map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) }
                let state = stat?.split(separator: ")").last?.split(separator: " ").first
                #expect(state == nil || state == "Z", "process \(pid) of the command outlived the run")
            }
        }
    }

    /// The command learns where the steps are from `$CASHOUT_SANDBOX_SUITE_URL`.
    @Test func theCommandIsToldWhereToAskWhetherTheStepsAreOver() throws {
        let suite = try #require(try files(["suite.json": Self.passing])["suite.json"])
        let driver = #"until curl -s "$CASHOUT_SANDBOX_SUITE_URL" | grep -q '"state":"passed"'; do sleep 0.05; done; echo over"#
        let (status, out, err) = try RunningBinary.run(["test", suite, "--serve", "--port", "0", "--exec", driver])
        #expect(status == 0, "\(out)\(err)")
        #expect(out.hasSuffix("over\nPASS shop (\(suite), 3 steps)\n  PASS c1 (steps 1, 3)\n  PASS other steps (step 2)\n  PASS the app\n"
                              + "  3 of 3 cases passed\n1 passed, 0 failed\n"), "\(out)")
    }

    /// An app that answers each notification at once and asks for the status 100 ms later, on a
    /// thread of its own, gets a clean report: each step that moves the clock waits for it.
    @Test func anAppThatFollowsUpInTheBackgroundPassesTheCertifySuite() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let app = root.appendingPathComponent("Tests/ExampleApps/background_app.py").path
        let suite = root.appendingPathComponent("scenarios/certify.json").path
        let (status, out, err) = try RunningBinary.run(["test", suite, "--serve", "--port", "0", "--exec", "python3 \(app)"])
        #expect(status == 0, "\(out)\(err)")
        #expect(out.contains("background app: the suite passed\n"))
    }

    /// Without `--exec`, the sandbox serves until the steps end (for an app started otherwise).
    @Test func withoutACommandTheStepsAlone() throws {
        let suite = try #require(try files(["suite.json": Self.passing])["suite.json"])
        let (status, out, _) = try RunningBinary.run(["test", suite, "--serve", "--port", "0"])
        #expect(status == 0)
        #expect(out.hasSuffix("PASS shop (\(suite), 3 steps)\n  PASS c1 (steps 1, 3)\n  PASS other steps (step 2)\n  2 of 2 cases passed\n"
                              + "1 passed, 0 failed\n"))
        #expect(out.hasPrefix("serving shop on http://127.0.0.1:"))
    }

    @Test func usageErrors() throws {
        let paths = try files(["suite.json": Self.passing, "other.json": Self.passing, "bare.json": #"{"name": "bare"}"#])
        let (suite, other, bare) = (paths["suite.json"]!, paths["other.json"]!, paths["bare.json"]!)
        let cases: [([String], String)] = [
            (["test", suite, "--exec", "true"], "error: option '--exec' needs '--serve'"),
            (["test", suite, "--host", "0.0.0.0"], "error: option '--host' needs '--serve'"),
            (["test", suite, "--quiet-period", "1s"], "error: option '--quiet-period' needs '--serve'"),
            (["test", suite, "--serve", "--grace", "1s"], "error: option '--grace' needs '--exec' (it is how long a stopped command may take)"),
            (["test", suite, "--serve", "--quiet-period", "soon"],
             "error: option '--quiet-period' expects a duration such as 500ms or 10s, at most 1m, got 'soon'"),
            (["test", suite, "--serve", "--quiet-limit", "2h"],
             "error: option '--quiet-limit' expects a duration such as 500ms or 10s, at most 1h, got '2h'"),
            (["test", suite, "--serve", "--allowed-host", "bad host"],
             "error: option '--allowed-host' expects a host name such as qa-box, .example.com, [fd00::1] or *, got 'bad host'"),
            (["test", suite, other, "--serve"], "error: option '--serve' takes one scenario file with steps, got 2: \(suite) \(other)"),
            (["test", "--serve"], "error: option '--serve' takes one scenario file with steps, got none"),
            (["test", bare, "--serve"],
             "error: \(bare) has no steps: '--serve' runs the steps of one scenario file (a file needs \"steps\" to be a test)"),
        ]
        for (arguments, message) in cases {
            let (status, out, err) = try RunningBinary.run(arguments)
            #expect(status == 2, "\(arguments)")
            #expect(out.isEmpty)
            #expect(err == "\(message)\nSee 'cashout-sandbox test --help'.\n")
        }
    }

    /// A step that moves the clock waits for a quiet period (the steps' own requests count), at
    /// most `--quiet-limit`; then it goes on, and the output and the JUnit report note it.
    @Test func aStepThatCouldNotWaitForQuietIsNoted() throws {
        let suite = try #require(try files(["suite.json": Self.passing])["suite.json"])
        let junit = suite.replacingOccurrences(of: "suite.json", with: "report.xml")
        let (status, out, err) = try RunningBinary.run(["test", suite, "--serve", "--port", "0", "--quiet-period", "1m",
                                                        "--quiet-limit", "100ms", "--junit", junit])
        #expect(status == 0, "\(out)\(err)")
        #expect(out.hasSuffix("""
            PASS shop (\(suite), 3 steps)
              PASS c1 (steps 1, 3)
              PASS other steps (step 2)
              2 of 2 cases passed
            NOTE shop (\(suite)): step 2: the app was still busy after --quiet-limit 100ms; the clock moved anyway
            1 passed, 0 failed

            """), "\(out)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<system-out>step 2: the app was still busy after --quiet-limit 100ms; the clock moved anyway</system-out>"))
    }

    /// `--keep`: the run is reported as it ended, then its sandbox goes on serving its end state (the dashboard, the admin
    /// API, the cashout's timeline) until SIGTERM, which ends the command with the run's status: 1 for a failed run, 0 for
    /// a passed one. Without `--serve` it is refused.
    @Test func keepServesTheFinishedRunUntilASignal() throws {
        let paths = try files(["failing.json": Self.failing, "passing.json": Self.passing])
        for (file, status) in [("failing.json", Int32(1)), ("passing.json", Int32(0))] {
            let run = try RunningBinary(["test", try #require(paths[file]), "--serve", "--port", "0", "--keep"])
            let kept = try #require(run.line(startingWith: "kept: the run's sandbox, as it ended, at "), "\(run.stdout)\(run.stderr)")
            let base = kept.dropFirst("kept: the run's sandbox, as it ended, at ".count).components(separatedBy: "/ (the dashboard)")[0]
            #expect(run.stdout.contains(status == 0 ? "PASS shop" : "FAIL shop"), "\(run.stdout)")
            #expect(run.stdout.contains(status == 0 ? "1 passed, 0 failed" : "0 passed, 1 failed"))
            let page = try TestHTTP.send(method: "GET", url: base + "/")
            #expect(page.status == 200 && String(decoding: page.body, as: UTF8.self).contains("CashoutSandbox"))
            let suite = try JSON.parse(try TestHTTP.send(method: "GET", url: base + "/sandbox/suite").body)
            #expect(suite["state"] == .string(status == 0 ? "passed" : "failed"))
            let timeline = try TestHTTP.send(method: "GET", url: base + "/sandbox/cashouts/1000001/timeline")
            #expect(timeline.status == 200)
            #expect(run.isRunning)
            #expect(run.terminate() == status)
        }
        let (refused, _, err) = try RunningBinary.run(["test", try #require(paths["passing.json"]), "--keep"])
        #expect(refused == 2 && err.hasPrefix("error: option '--keep' needs '--serve'"))
    }

    /// `--timeline T.html` writes the run's record beside its page (T.run), and `show` serves the run from it as it
    /// ended, on a manual clock where the run left it: its cashout, its requests with their bodies, its timeline; a file
    /// that is no record is refused.
    @Test func showServesAFinishedRunFromItsRecord() throws {
        let paths = try files(["failing.json": Self.failing])
        let suite = try #require(paths["failing.json"])
        let page = suite.replacingOccurrences(of: "failing.json", with: "run/t.html")
        let (status, _, _) = try RunningBinary.run(["test", suite, "--serve", "--port", "0", "--timeline", page])
        #expect(status == 1)
        let record = page.replacingOccurrences(of: ".html", with: ".run")
        #expect(FileManager.default.fileExists(atPath: record))
        let shown = try RunningBinary(["show", page, "--port", "0"])
        let base = try #require(shown.url, "\(shown.stdout)\(shown.stderr)")
        #expect(shown.line(startingWith: "showing shop, as it ended at 2026-01-05T09:00:00") != nil, "\(shown.stdout)")
        let cashout = try JSON.parse(try TestHTTP.send(method: "GET", url: base + "/sandbox/cashouts/1000001").body)
        #expect(cashout["status"] == "PENDING" && cashout["external_id"] == "shop-1")
        let requests = try JSON.parse(try TestHTTP.send(method: "GET", url: base + "/sandbox/requests").body)["requests"]?.arrayValue ?? []
        #expect(requests.map { $0["path"]?.stringValue ?? "" } == ["/v3/cashout"])
        #expect(requests.first?["body"]?.stringValue?.contains(#""external_id":"shop-1""#) == true)
        let timeline = try JSON.parse(try TestHTTP.send(method: "GET", url: base + "/sandbox/cashouts/1000001/timeline").body)
        #expect(timeline["entries"]?.arrayValue?.first?["text"] == "the suite's step: POST /v3/cashout: 200")
        #expect(shown.terminate() == 0)
        let (refused, _, err) = try RunningBinary.run(["show", suite])
        #expect(refused == 2 && err.hasPrefix("error: no run record at"), "\(err)")
    }

    /// `--host 0.0.0.0`, for an app in another container: every IPv4 address; an address that
    /// does not resolve is refused as `serve` refuses it.
    @Test func hostBindsTheAddressGiven() throws {
        let suite = try #require(try files(["suite.json": Self.passing])["suite.json"])
        let (status, out, err) = try RunningBinary.run(["test", suite, "--serve", "--port", "0", "--host", "0.0.0.0", "--exec", Self.app])
        #expect(status == 0, "\(out)\(err)")
        #expect(out.hasPrefix("serving shop on http://0.0.0.0:"))
        let (refused, none, said) = try RunningBinary.run(["test", suite, "--serve", "--port", "0", "--host", "no.such.host.invalid"])
        #expect(refused == 1)
        #expect(none.isEmpty)
        #expect(said == "error: cannot start: resolve no.such.host.invalid: Name or service not known\n")
    }

    @Test func aPortInUseIsRefusedAsServeRefusesIt() throws {
        let server = try RunningBinary(["serve", "--port", "0", "--host", "127.0.0.1", "--log-format", "off"])
        let url = try #require(server.url)
        let port = try #require(url.split(separator: ":").last.map(String.init))
        let suite = try #require(try files(["suite.json": Self.passing])["suite.json"])
        let (status, out, err) = try RunningBinary.run(["test", suite, "--serve", "--port", port, "--exec", "true"])
        #expect(status == 1)
        #expect(out.isEmpty)
        #expect(err == """
            error: cannot start: bind 127.0.0.1:\(port): Address already in use
            hint: another program holds that port (a sandbox started earlier?): stop it, or choose another with --port (0 picks a free one)

            """)
        #expect(server.terminate() == 0)
    }

    /// SIGTERM (or Ctrl-C) stops the command, and everything it started, and fails the run.
    @Test func aSignalStopsTheCommand() throws {
        let paths = try files(["suite.json": Self.passing])
        let suite = try #require(paths["suite.json"])
        let pids = suite.replacingOccurrences(of: "suite.json", with: "pids")
        // The background sleep outlasts the test's wait: only a stop ends it in time.
        let run = try RunningBinary(["test", suite, "--serve", "--port", "0",
                                     "--exec", "sleep \(10 * Waiting.seconds) & echo $$ $! > \(pids); echo started; wait"])
        #expect(run.line(startingWith: "started") != nil)
        let started = try String(contentsOfFile: pids,
                                 encoding: .utf8).split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(started.count == 2)
        run.kill(SIGTERM)
        #expect(run.exitStatus() == 1)
        #expect(run.stderr.contains("received SIGTERM, stopping the command\n"))
        // Signalled, each ends as soon as it is scheduled: waited for, not looked at once.
        for pid in started {
            #expect(Waiting.until { !Self.runs(pid) }, "process \(pid) still runs")
            if Self.runs(pid) { kill(pid, SIGKILL) }
        }
    }

    /// Whether `pid` is a process that has not ended (a zombie has: its parent, gone, left it to
    /// be reaped by init).
    private static func runs(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        // "pid (name) S ...": the state follows the name's closing parenthesis.
        return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
    }
}
