import Foundation
import Glibc
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// The built `cashout-sandbox` binary, run as a user would.
@Suite struct ServeCommandTests {
    @Test func versionAndHelpExitZero() throws {
        let (status, out, _) = try RunningBinary.run(["--version"])
        #expect(status == 0)
        #expect(out == "cashout-sandbox 0.3.0\n")
        let (helpStatus, help, _) = try RunningBinary.run(["serve", "--help"])
        #expect(helpStatus == 0)
        #expect(help.contains("--port PORT"))
    }

    @Test func usageErrorsExitTwoWithAClearMessage() throws {
        let (status, out, err) = try RunningBinary.run(["serve", "--prot", "8080"])
        #expect(status == 2)
        #expect(out.isEmpty)
        #expect(err == "error: unknown option '--prot' for serve; did you mean '--port'?\nSee 'cashout-sandbox serve --help'.\n")
        #expect(try RunningBinary.run([]).0 == 2)
        #expect(try RunningBinary.run(["serve", "--port", "eighty"]).2.hasPrefix("error: option '--port' expects a port number"))
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func servesUntilSignalledThenStopsWithStatusZero(signal: Int32) throws {
        let binary = try RunningBinary(["serve", "--port", "0", "--clock", "manual"])
        let listening = try #require(binary.line(startingWith: "listening on http://"))
        let url = String(listening.dropFirst("listening on ".count))
        #expect(url.hasPrefix("http://127.0.0.1:"))
        #expect(binary.line(startingWith: "also listening on http://[::1]:") != nil)

        let health = try TestHTTP.send(method: "GET", url: url + "/sandbox/health")
        #expect(health.status == 200)
        let body = try JSON.parse(health.body)
        #expect(body["status"] == "ok")
        #expect(body["clock"]?["mode"] == "manual")

        binary.kill(signal)
        #expect(binary.exitStatus() == 0)
        #expect(binary.line(startingWith: "stopped") != nil)
        // One access-log line per request: time, method, path, status, duration.
        let log = try #require(binary.stdout.split(separator: "\n").first { $0.contains(" GET /sandbox/health ") })
        #expect(log.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ GET \/sandbox\/health 200 \d+\.\d{3}ms/) != nil)
    }

    @Test func jsonAccessLogLinesAreJSON() throws {
        let binary = try RunningBinary(["serve", "--port", "0", "--log-format", "json"])
        // The startup lines are JSON too, their text in "message".
        let listening = try JSON.parse(try #require(binary.line(containing: "listening on http://")))
        let url = try #require(listening["message"]?.stringValue?.dropFirst("listening on ".count))
        #expect(listening["url"]?.stringValue == String(url))
        #expect(try TestHTTP.send(method: "GET", url: url + "/nope?x=1").status == 404)
        #expect(binary.terminate() == 0)
        let line = try #require(binary.stdout.split(separator: "\n").first { $0.hasPrefix("{") && $0.contains(#""method""#) })
        let entry = try JSON.parse(String(line))
        #expect(entry["method"] == "GET")
        #expect(entry["path"] == "/nope")
        #expect(entry["status"] == 404)
        #expect(entry["duration_ms"]?.numberText != nil)
        #expect(entry["time"]?.stringValue?.hasSuffix("Z") == true)
    }

    @Test func aTakenPortExitsOneAndSaysWhy() throws {
        let first = try RunningBinary(["serve", "--host", "127.0.0.1", "--port", "0"])
        let url = try #require(first.line(startingWith: "listening on "))
        let port = try #require(url.split(separator: ":").last)
        let (status, _, err) = try RunningBinary.run(["serve", "--host", "127.0.0.1", "--port", String(port)])
        #expect(status == 1)
        #expect(err == "error: cannot start: bind 127.0.0.1:\(port): Address already in use\n"
            + "hint: another program holds that port (a sandbox started earlier?): stop it, or choose another with --port (0 picks a free one)\n")
        #expect(first.terminate() == 0)
    }

    /// A `--state-dir` that cannot be used exits 2, naming the folder and why (Running it, "When the disk fails").
    @Test func aStateDirectoryThatCannotBeUsedExitsTwoAndSaysWhy() throws {
        let path = NSTemporaryDirectory() + "state-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        let (status, _, err) = try RunningBinary.run(["serve", "--port", "0", "--state-dir", path])
        #expect(status == 2)
        #expect(err == "error: cannot start: state directory \(path): it is a file, not a folder\n")
        try FileManager.default.removeItem(atPath: path)
        let first = try RunningBinary(["serve", "--port", "0", "--state-dir", path])
        _ = try #require(first.line(startingWith: "listening on "))
        let (taken, _, said) = try RunningBinary.run(["serve", "--port", "0", "--state-dir", path])
        #expect(taken == 2)
        #expect(said == "error: cannot start: state directory \(path): another sandbox is using it (stop it, or start this one on "
            + "another folder)\n")
        #expect(first.terminate() == 0)
    }

    @Test func bindsAllInterfacesWhenAsked() throws {
        let binary = try RunningBinary(["serve", "--host", "0.0.0.0", "--port", "0"])
        let listening = try #require(binary.line(startingWith: "listening on "))
        #expect(listening.hasPrefix("listening on http://0.0.0.0:"))
        let port = try #require(listening.split(separator: ":").last)
        #expect(try TestHTTP.send(method: "GET", url: "http://127.0.0.1:\(port)/sandbox/health").status == 200)
        // The URLs to open name localhost: 0.0.0.0 is where it listens, not an address a browser opens everywhere.
        #expect(binary.line(startingWith: "dashboard: ") == "dashboard: http://localhost:\(port)/")
        #expect(binary.terminate() == 0)
    }
}

/// A parent may start the server with SIGTERM and SIGINT ignored (some supervisors and test
/// runners do): the server must stop on them all the same.
@Suite struct InheritedSignalTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func stopsEvenWhenStartedWithTheSignalIgnored(signal: Int32) throws {
        let binary = try RunningBinary(["serve", "--port", "0"], under: ["/bin/sh", "-c", "trap '' TERM INT; exec \"$0\" \"$@\""])
        #expect(binary.line(startingWith: "listening on ") != nil)
        binary.kill(signal)
        #expect(binary.exitStatus() == 0)
    }
}

/// PID 1 in a container gets no default action for SIGTERM: the server must stop on it anyway.
/// A new PID namespace (`unshare --pid --fork`, root only) makes the binary PID 1 as `docker run` would.
@Suite struct ProcessOneTests {
    static var canUnshare: Bool { geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") }

    @Test(.enabled(if: canUnshare))
    func stopsOnSIGTERMAsPID1() throws {
        let binary = try RunningBinary(["serve", "--port", "0"], under: ["/usr/bin/unshare", "--pid", "--fork", "--mount-proc"])
        let listening = try #require(binary.line(startingWith: "listening on "))
        let url = listening.dropFirst("listening on ".count)
        #expect(try TestHTTP.send(method: "GET", url: url + "/sandbox/health").status == 200)
        // The server is unshare's child; in its own namespace it is PID 1.
        let children = try String(contentsOfFile: "/proc/\(binary.pid)/task/\(binary.pid)/children", encoding: .utf8)
        let server = try #require(Int32(children.split(separator: " ").first ?? ""))
        let status = try String(contentsOfFile: "/proc/\(server)/status", encoding: .utf8)
        #expect(status.contains("NSpid:\t\(server)\t1"))
        kill(server, SIGTERM)
        #expect(binary.exitStatus() == 0)
        #expect(binary.line(startingWith: "received SIGTERM, stopping") != nil)
    }
}

/// Scenario files on the command line: `serve --scenario` and `validate`.
@Suite struct ScenarioCommandTests {
    private func write(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "scenario-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func validateSaysOkOrNamesTheFilePathAndExpectation() throws {
        let good = try write(#"{"name": "fine", "bank": {"default": [{"after": "1m", "status": "DELIVERED"}]}}"#)
        let bad = try write(#"{"bank": {"rules": [{"when": {}, "then": [{"after": "1m", "status": "PAID"}]}]}}"#)
        let (status, out, _) = try RunningBinary.run(["validate", good, bad])
        #expect(status == 1)
        #expect(out == "ok \(good)\nerror: \(bad): bank.rules[0].then[0].status: expected a status: PENDING, ON_HOLD, DELIVERED, COMPLETED, "
                       + "REJECTED or CANCELLED, got \"PAID\"\n")
        #expect(try RunningBinary.run(["validate", good]).0 == 0)
    }

    @Test func serveLoadsScenarioMerchantsAndClock() throws {
        let file = try write(#"{"clock": {"mode": "manual", "start": "2026-03-02T12:00:00Z"}, "merchants": [{"login": "acme", "pass": "p", "#
                             + #""secret": "s", "balance": {"USD": "5.00"}}]}"#)
        let binary = try RunningBinary(["serve", "--port", "0", "--scenario", file])
        let url = try #require(binary.url)
        #expect(binary.line(startingWith: "merchant: login acme, pass p, secret s, read-only key , balance USD 5.00") != nil)
        let health = try TestHTTP.send(method: "GET", url: url + "/sandbox/health")
        #expect(health.bodyText.contains(#""mode":"manual","now":"2026-03-02T12:00:00Z""#))
        #expect(binary.terminate() == 0)
    }

    /// An invalid file keeps the server from starting (1, as `validate` and `test` count it a
    /// failure); a file that is not there is a bad command line (2).
    @Test func serveRefusesAnInvalidScenarioWithStatus1AndAMissingOneWith2() throws {
        let file = try write(#"{"faults": [{"kind": "close"}]}"#)
        let (status, _, err) = try RunningBinary.run(["serve", "--port", "0", "--scenario", file])
        #expect(status == 1)
        #expect(err == "error: \(file): faults[0]: expected exactly one of \"every\" or \"rate\"\n")
        let (missing, _, why) = try RunningBinary.run(["serve", "--port", "0", "--scenario", "/no/such.json"])
        #expect(missing == 2)
        #expect(why == "error: no such file or folder: /no/such.json\nSee 'cashout-sandbox serve --help'.\n")
    }
}

/// `cashout-sandbox test`: output lines, exit status, JUnit XML (checked by Python's XML parser).
@Suite struct TestCommandTests {
    private func folder(_ files: [String: String]) throws -> String {
        let path = NSTemporaryDirectory() + "suites-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: "\(path)/\(name)", atomically: true, encoding: .utf8) }
        return path
    }

    private static let passing = #"{"name": "passes", "steps": [{"create_cashout": {}, "as": "c"}, {"advance": "15s"}, {"expect_cashout": {"ref": "#
                                 + #""c", "status": "COMPLETED"}}]}"#
    private static let failing = #"{"name": "fails <&>", "steps": [{"create_cashout": {}, "as": "c"}, {"expect_cashout": {"ref": "c", "status": "#
                                 + #""COMPLETED"}}]}"#

    /// Each suite's line, its cases under it when it has more than one (its payout's and the steps about no payout), then
    /// a summary.
    @Test func passingSuitesExitZeroWithALineEachTheirCasesAndASummary() throws {
        let path = try folder(["a.json": Self.passing, "no-steps.json": #"{"name": "bank only"}"#])
        let (status, out, _) = try RunningBinary.run(["test", path])
        #expect(status == 0)
        #expect(out == """
            PASS passes (\(path)/a.json, 3 steps)
              PASS c (steps 1, 3)
              PASS other steps (step 2)
              2 of 2 cases passed
            1 passed, 0 failed

            """)
    }

    /// (`--junit` in a folder not made yet makes it.)
    @Test func aFailureNamesFileStepExpectedAndActualAndExitsOne() throws {
        let path = try folder(["a.json": Self.passing, "b.json": Self.failing, "c.json": #"{"steps": [{"advance": "soon"}]}"#])
        let junit = path + "/reports/ci/report.xml"
        let (status, out, _) = try RunningBinary.run(["test", path, "--junit", junit])
        #expect(status == 1)
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines.contains("FAIL fails <&> (\(path)/b.json): step 2: expect_cashout c: expected status COMPLETED, got PENDING"))
        // A file that cannot be loaded: one line, the file named once, no step number.
        #expect(lines.contains(#"FAIL \#(path)/c.json: steps[0].advance: expected a duration such as "30s", "1h5m" or "2d", got "soon""#))
        #expect(lines.last == "1 passed, 2 failed")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3") else { return }
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            suites = root.findall('testsuite')
            cases = [c for s in suites for c in s.findall('testcase')]
            print(root.tag, root.get('tests'), root.get('failures'), root.get('errors'), len(suites), len(cases),
                  sum(1 for c in cases if c.find('failure') is not None), sum(1 for c in cases if c.find('error') is not None))
            print([s.get('name') + ': ' + ' '.join(c.get('name') for c in s.findall('testcase')) for s in suites])
            print([c.get('name') for c in cases if c.find('failure') is not None][0])
            print([(c.get('name'), c.find('error').get('type')) for c in cases if c.find('error') is not None][0])
            """, junit]
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let parsed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        // A testsuite per file, a testcase per case (a suite of one case is one testcase by its name); a file that cannot be
        // loaded is an error of the suite, not a step that failed.
        #expect(parsed == """
            testsuites 4 1 1 3 4 1 1
            ['\(path)/c.json: \(path)/c.json', 'passes: c other steps', 'fails <&>: fails <&>']
            fails <&>
            ('\(path)/c.json', 'ScenarioNotLoaded')

            """)
    }

    /// `expect_failure`: a suite whose step fails passes as XFAIL, showing the failure; one whose
    /// steps all pass fails.
    @Test func aSuiteExpectedToFailIsAnXFAILAndOneThatPassesAFailure() throws {
        let expected = #"{"name": "shows a failure", "expect_failure": "it is PENDING", "steps": [{"create_cashout": {}, "as": "c"}, "#
                       + #"{"expect_cashout": {"ref": "c", "status": "COMPLETED"}}]}"#
        let unexpected = #"{"name": "passes anyway", "expect_failure": "it is PENDING", "steps": [{"advance": "1s"}]}"#
        let path = try folder(["a.json": expected, "b.json": unexpected])
        let (status, out, _) = try RunningBinary.run(["test", "\(path)/a.json"])
        #expect(status == 0)
        #expect(out == "XFAIL shows a failure (\(path)/a.json): failed as expected (it is PENDING): step 2: expect_cashout c: expected status "
                       + "COMPLETED, got PENDING\n1 passed, 0 failed\n")
        let (both, lines, _) = try RunningBinary.run(["test", path])
        #expect(both == 1)
        #expect(lines.contains("FAIL passes anyway (\(path)/b.json): step 1: expected a failure (it is PENDING), but every step passed\n"))
        #expect(lines.hasSuffix("1 passed, 1 failed\n"))
    }

    @Test func filterAndBadPaths() throws {
        let path = try folder(["a.json": Self.passing, "b.json": Self.failing])
        let (status, out, _) = try RunningBinary.run(["test", path, "--filter", "passes"])
        #expect(status == 0)
        #expect(out.hasSuffix("1 passed, 0 failed\n"))
        // Selecting nothing is a command line to fix (2), not a failing test (1): pytest has a status for it too.
        let (nothing, printed, why) = try RunningBinary.run(["test", path, "--filter", "no such scenario"])
        #expect(nothing == 2)
        #expect(printed.isEmpty)
        #expect(why == """
            error: --filter 'no such scenario' matches none of the 2 scenarios with steps (it is looked for in their names and files)
            See 'cashout-sandbox test --help'.

            """)
        let (missing, _, err) = try RunningBinary.run(["test", "/no/such/folder"])
        #expect(missing == 2)
        #expect(err.hasPrefix("error: no such file or folder: /no/such/folder"))
    }

    /// `openapi` and `postman` name the sandbox by --base-url: trailing slashes go, and anything
    /// but an http(s) URL is a usage error (a wrong URL would break every request of the file).
    @Test func documentsTakeTheBaseURLWithoutItsTrailingSlash() throws {
        let (status, out, _) = try RunningBinary.run(["postman", "--environment", "--base-url", "http://qa.example:9000//"])
        #expect(status == 0)
        #expect(try JSON.parse(Array(out.utf8))["values"]?[0]?["value"] == "http://qa.example:9000")
        let openapi = try RunningBinary.run(["openapi", "--base-url", "https://qa.example/sandbox/"])
        #expect(try JSON.parse(Array(openapi.1.utf8))["servers"]?[0]?["url"] == "https://qa.example/sandbox")
        for bad in ["localhost:8080", "ftp://host", "http://", "http://a b"] {
            let (badStatus, _, err) = try RunningBinary.run(["postman", "--base-url", bad])
            #expect(badStatus == 2)
            #expect(err.hasPrefix("error: option '--base-url' expects an http or https URL such as http://localhost:8080, got '\(bad)'"))
        }
    }
}
