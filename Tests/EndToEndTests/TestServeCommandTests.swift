import Foundation
import Glibc
import TestHelpers
import Testing

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
        #expect(lines.dropFirst() == ["app <ok> & done", "PASS shop (\(suite), 3 steps)", "1 passed, 0 failed"])
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
            FAIL shop (\(suite)): command exited with status 3: \(command)
            0 passed, 1 failed

            """), "\(out)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"failures="1""#))
        #expect(xml.contains(#"<failure message="command exited with status 3" type="CommandFailed">command exited with status 3: "#))
        // Both streams, each line as it came (two pipes: which of them is read first may vary).
        let output = try #require(xml.split(separator: "<system-out>").last?.split(separator: "</system-out>").first)
        #expect(output.split(separator: "\n").sorted() == ["app &lt;ok&gt; &amp; done", "to stderr"], "\(xml)")
    }

    @Test func aFailingStepFailsTheSuiteThoughTheCommandPasses() throws {
        let suite = try #require(try files(["suite.json": Self.failing])["suite.json"])
        let (status, out, _) = try RunningBinary.run(["test", suite, "--serve", "--port", "0", "--exec", Self.app])
        #expect(status == 1)
        #expect(out.hasSuffix("""
            app <ok> & done
            FAIL shop (\(suite)): step 2: expect_cashout c1: expected status COMPLETED, got PENDING
            0 passed, 1 failed

            """), "\(out)")
        #expect(!out.contains("command exited"))
    }

    /// Without `--exec`, the sandbox serves until the steps end (for an app started otherwise).
    @Test func withoutACommandTheStepsAlone() throws {
        let suite = try #require(try files(["suite.json": Self.passing])["suite.json"])
        let (status, out, _) = try RunningBinary.run(["test", suite, "--serve", "--port", "0"])
        #expect(status == 0)
        #expect(out.hasSuffix("PASS shop (\(suite), 3 steps)\n1 passed, 0 failed\n"))
        #expect(out.hasPrefix("serving shop on http://127.0.0.1:"))
    }

    @Test func usageErrors() throws {
        let paths = try files(["suite.json": Self.passing, "other.json": Self.passing, "bare.json": #"{"name": "bare"}"#])
        let (suite, other, bare) = (paths["suite.json"]!, paths["other.json"]!, paths["bare.json"]!)
        let cases: [([String], String)] = [
            (["test", suite, "--exec", "true"], "error: option '--exec' needs '--serve'"),
            (["test", suite, other, "--serve"], "error: option '--serve' takes one scenario file with steps, got 2: \(suite) \(other)"),
            (["test", "--serve"], "error: option '--serve' takes one scenario file with steps, got none"),
            (["test", bare, "--serve"], "error: \(bare) has no steps: '--serve' runs the steps of one scenario file (a file needs \"steps\" to be a test)"),
        ]
        for (arguments, message) in cases {
            let (status, out, err) = try RunningBinary.run(arguments)
            #expect(status == 2, "\(arguments)")
            #expect(out.isEmpty)
            #expect(err == "\(message)\nSee 'cashout-sandbox test --help'.\n")
        }
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
        let started = try String(contentsOfFile: pids, encoding: .utf8).split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
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
