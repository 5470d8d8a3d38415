import Foundation
import Glibc
@testable import SandboxBank
@testable import SandboxContract
@testable import SandboxWire
@testable import SandboxSupport
import TestHelpers
import Testing

/// `explore SUITE --exec CMD`: runs drawn from the suite's space by seed, a line each, the first
/// failing run written as a scenario file of pinned rules, shrunk, that `test --serve` fails the
/// same way.
@Suite struct ExploreCommandTests {
    /// A folder with `suite.json` holding `text`: its path.
    private func suite(_ text: String) throws -> String {
        let folder = NSTemporaryDirectory() + "explore-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: "\(folder)/suite.json", atomically: true, encoding: .utf8)
        return "\(folder)/suite.json"
    }

    /// Every chaos and fault kind switched off (a kind left out keeps the standard space's rate;
    /// each `ChaosKind` and `FaultKind` is named, so a new one with a standard rate is off too).
    static let noChaosNorFaults = #""chaos": {\#(zeroRates(ChaosKind.allCases.map(\.rawValue)))}, "#
        + #""faults": {\#(zeroRates(FaultKind.allCases.map(\.rawValue)))}"#

    /// `"a": 0, "b": 0` for `kinds` a and b.
    private static func zeroRates(_ kinds: [String]) -> String { kinds.map { #""\#($0)": 0"# }.joined(separator: ", ") }

    /// One cashout, which half the runs reject: the step that expects it completed fails then.
    private static let coinToss = #"""
        {"name": "coin toss",
         "explore": {"outcomes": [{"weight": 1, "then": [{"after": "5s", "status": "DELIVERED"}, {"after": "5s", "status": "COMPLETED"}]},
                                  {"weight": 1, "then": [{"after": {"min": "2s", "max": "9s"}, "status": "REJECTED", "rejection_code": 801}]}],
                     "late_reversal": 0, \#(ExploreCommandTests.noChaosNorFaults)},
         "steps": [{"create_cashout": {"external_id": "order-1"}, "as": "c1"}, {"advance": "1m"},
                   {"expect_cashout": {"ref": "c1", "status": "COMPLETED"}}]}
        """#

    /// (`--junit` in a folder not made yet makes it, as pytest's and Surefire's reports do.)
    @Test func failingRunsAreShrunkToAFileThatFailsTheSameWay() throws {
        let path = try suite(Self.coinToss)
        let folder = (path as NSString).deletingLastPathComponent
        let arguments = ["explore", path, "--runs", "8", "--seed", "40", "--exec", "true", "--out", "\(folder)/found", "--junit",
                         "\(folder)/out/junit.xml"]
        let (status, out, err) = try RunningBinary.run(arguments)
        let runs = out.split(separator: "\n").filter { $0.hasPrefix("run ") }
        #expect(runs.count == 8, "\(out)\(err)")
        for (index, line) in runs.enumerated() {
            #expect(line == "run \(index + 1) (seed \(40 + index)): PASS" || line == "run \(index + 1) (seed \(40 + index)): FAIL step 3", "\(line)")
        }
        let failed = runs.filter { $0.hasSuffix("FAIL step 3") }
        try #require(!failed.isEmpty && failed.count < 8, "the seeds drew one fate only: \(out)")
        #expect(status == 1)
        #expect(out.contains("\n8 runs, \(failed.count) failed, 1 distinct: step 3\n"), "\(out)")
        let first = try #require(failed.first?.split(separator: " ")[3].dropLast(2)).description  // run N (seed S): → S
        let file = "\(folder)/found/suite-seed\(first).json"
        #expect(out.contains("  shrunk 1 drawn rule to 1, still failing with step 3: \(file)\n"), "\(out)")
        #expect(out.contains("wrote \(file) (step 3)"), "\(out)")
        // A testsuite per run, a testcase per case of it: the cashout's case fails in each failing run.
        let junit = try String(contentsOfFile: "\(folder)/out/junit.xml", encoding: .utf8)
        #expect(junit.contains(#"failures="\#(failed.count)""#))
        #expect(junit.components(separatedBy: "<testsuite ").count - 1 == 8)
        #expect(junit.components(separatedBy: #"name="c1" file="\#(path)""#).count - 1 == 8)
        #expect(junit.contains(#"<testsuite name="run 1 (seed 40)" tests="3""#))
        #expect(junit.contains(#"<testcase classname="run 1 (seed 40)" name="other steps""#))

        // The file: the rejection pinned to the cashout by its reference, the usual fate for the rest;
        // written in the format's order, a rule or a step a line.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let run = failed.first?.split(separator: " ")[1] ?? ""
        #expect(text.hasPrefix("{\n  \"name\": \"coin toss, explored run \(run) (seed \(first))\",\n  \"description\": \"Found by cashout-sandbox "
                               + "explore "),
                "\(text)")
        #expect(text.contains("\n  \"steps\": [\n    {\"as\":\"c1\",\"create_cashout\":{\"external_id\":\"order-1\"}},\n"), "\(text)")
        let written = try JSON.parse(Array(text.utf8))
        #expect(written["explore"] == nil)
        let rules = try #require(written["bank"]?["rules"]?.arrayValue)
        #expect(rules.count == 2)
        #expect(rules.first?["when"] == ["amount": "100.00"])  // by what it is, never by the reference the app made
        #expect(rules.first?["then"]?[0]?["status"] == "REJECTED")
        #expect(rules.first?["then"]?[0]?["rejection_code"] == 801)
        #expect(rules.last == ["name": "explored: the usual fate",
                               "then": [["after": "5s", "status": "DELIVERED"], ["after": "5s", "status": "COMPLETED"]]])

        // It fails the same way as a suite of its own.
        let (again, output, _) = try RunningBinary.run(["test", file, "--serve", "--port", "0", "--exec", "true"])
        #expect(again == 1)
        #expect(output.contains("step 3: expect_cashout c1: expected status COMPLETED, got REJECTED"), "\(output)")

        // The same seed gives the same runs.
        let (_, repeated, _) = try RunningBinary.run(arguments)
        #expect(repeated.split(separator: "\n").filter { $0.hasPrefix("run ") } == runs)

        // What happened to the cashout, under the run and beside the file: its page and the page's JSON.
        #expect(out.contains("\n  timeline of cashout [amount 100.00] (d24 sandbox_login, \"order-1\", 100.00 BRL, now REJECTED):\n"
                             + "    09:00:00.000 +"), "\(out)")
        #expect(out.contains("s   app → sandbox  the suite's step: POST /v3/cashout: 200\n"), "\(out)")
        #expect(out.contains("s   sandbox        judged step 3: expect_cashout c1: expected status COMPLETED, got REJECTED\n"), "\(out)")
        let page = try String(contentsOfFile: "\(folder)/found/suite-seed\(first).html", encoding: .utf8)
        #expect(page.hasPrefix("<!doctype html>"))
        #expect(page.contains("<title>coin toss (\(path)), run \(run) (seed \(first)), as it first failed</title>"))
        #expect(!page.contains(#"src=""#) && !page.contains(#"href="http"#) && page.contains("const Timeline"))  // it loads nothing
        let data = try JSON.parse(Array(try String(contentsOfFile: "\(folder)/found/suite-seed\(first).timeline.json", encoding: .utf8).utf8))
        #expect(data["findings"]?[0]?["id"] == "step 3" && data["cashouts"]?[0]?["name"] == "[amount 100.00]", "\(data)")
        // A folder of what explore wrote holds scenario files and timelines: `test` runs the scenarios alone.
        let (_, folderRun, _) = try RunningBinary.run(["test", "\(folder)/found"])
        #expect(folderRun.hasSuffix("0 passed, 1 failed\n") && !folderRun.contains(".timeline.json"), "\(folderRun)")
    }

    /// Two cashouts of one content (the same create twice under two references): the second's fate
    /// is pinned by its occurrence, and the file fails the same way, every time.
    @Test func aPayoutAlikeAnotherIsPinnedByItsOccurrence() throws {
        let path = try suite(#"""
            {"name": "twice",
             "explore": {"outcomes": [{"weight": 1, "then": [{"after": "5s", "status": "DELIVERED"}, {"after": "5s", "status": "COMPLETED"}]},
                                      {"weight": 1, "then": [{"after": "2s", "status": "REJECTED", "rejection_code": 801}]}],
                         "late_reversal": 0, \#(Self.noChaosNorFaults)},
             "steps": [{"create_cashout": {"external_id": "order-1"}, "as": "a"}, {"create_cashout": {"external_id": "order-2"}, "as": "b"},
                       {"advance": "1m"}, {"expect_cashout": {"ref": "b", "status": "COMPLETED"}}]}
            """#)
        let folder = (path as NSString).deletingLastPathComponent
        let (status, out, err) = try RunningBinary.run(["explore", path, "--runs", "12", "--seed", "1", "--exec", "true", "--out", folder])
        #expect(status == 1, "\(out)\(err)")
        #expect(!out.contains("not pinned") && !out.contains("written unshrunk"), "\(out)")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: folder)
            .first { $0.hasPrefix("suite-seed") && !Self.isTimeline($0) })
        let written = try JSON.parse(Array(try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8).utf8))
        #expect(written["bank"]?["rules"]?[0]?["when"] == ["amount": "100.00", "occurrence": 2], "\(written)")
        for _ in 1 ... 3 {
            let (again, output, _) = try RunningBinary.run(["test", "\(folder)/\(file)", "--serve", "--port", "0", "--exec", "true"])
            #expect(again == 1 && output.contains("step 4: expect_cashout b: expected status COMPLETED, got REJECTED"), "\(output)")
        }
    }

    @Test func everyRunPassingExitsZero() throws {
        let path = try suite(Self.coinToss.replacingOccurrences(of: #""status": "REJECTED", "rejection_code": 801"#,
                                                                with: #""status": "DELIVERED"}, {"after": "1s", "status": "COMPLETED""#))
        let (status, out, err) = try RunningBinary.run(["explore", path, "--runs", "3", "--seed", "1", "--exec", "true"])
        #expect(status == 0, "\(out)\(err)")
        #expect(out.hasSuffix("3 runs, 0 failed\n"), "\(out)")
    }

    /// An explored late reversal carries its API's late-rejection code: D24's 826. A kind left out
    /// of `chaos` keeps its standard rate (the suite sets each of them to 0, and so draws none).
    @Test func aLateReversalCarriesTheAPIsCode() throws {
        let path = try suite(#"""
            {"name": "reversed",
             "explore": {"outcomes": [{"weight": 1, "then": [{"after": "1s", "status": "DELIVERED"}, {"after": "1s", "status": "COMPLETED"}]}],
                         "late_reversal": 1, \#(Self.noChaosNorFaults)},
             "steps": [{"create_cashout": {"external_id": "r-1"}, "as": "c"}, {"advance": "1m"},
                       {"expect_cashout": {"ref": "c", "status": "REJECTED", "rejection_code": 826}}]}
            """#)
        let (status, out, err) = try RunningBinary.run(["explore", path, "--runs", "2", "--seed", "1", "--exec", "true"])
        #expect(status == 0, "\(out)\(err)")
        #expect(out.hasSuffix("2 runs, 0 failed\n"), "\(out)")
    }

    /// A CMD that never exits is stopped at the run's timeout, and the run fails.
    @Test func aCommandThatNeverExitsIsStoppedAtTheTimeout() throws {
        let path = try suite(#"{"name": "patient", "explore": {\#(Self.noChaosNorFaults)}, "steps": [{"advance": "1s"}]}"#)
        let (status, out, err) = try RunningBinary.run(["explore", path, "--runs", "1", "--seed", "1", "--exec", "sleep 1000",
                                                        "--timeout", "1s", "--grace", "100ms", "--out", path + ".found"])
        #expect(status == 1, "\(out)\(err)")
        #expect(out.contains("\nrun 1 (seed 1): FAIL command\n  CMD was still running 1s after it started (--timeout): stopped\n"), "\(out)")
        #expect(out.contains("\n  written unshrunk, all 0 drawn rules: \(path).found/suite-seed1.json\n"), "\(out)")
    }

    /// What a run writes but its timings: the lines printed (the `--out` folder named `OUT`), the
    /// files written, and the JUnit testcases' names and failures.
    /// explore's output without the timelines under its failing runs: their real times are that run's.
    static func withoutTimelines(_ output: String) -> String {
        var inside = false
        return output.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            inside = line.hasPrefix("  timeline of ") || (inside && line.hasPrefix("    "))
            return !inside
        }.joined(separator: "\n")
    }

    /// A page of a run's timeline, or its JSON.
    /// A file beside a written one: its run's timeline page and JSON, its run's record (each of what happened that time).
    private static func isTimeline(_ name: String) -> Bool {
        name.hasSuffix(".html") || name.hasSuffix(".timeline.json") || name.hasSuffix(".run")
    }

    private func explored(_ path: String, _ options: [String], out: String) throws -> (status: Int32, lines: String, files: [String: String]) {
        let (status, text, err) = try RunningBinary.run(["explore", path, "--out", out] + options)
        #expect(err.isEmpty, "\(err)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
        // The pages of a run's timeline hold its real times: another run's are other times.
        let files = try Dictionary(uniqueKeysWithValues: names.filter { !$0.hasPrefix("explore-shard-") && !Self.isTimeline($0) }.map {
            ($0, try String(contentsOfFile: "\(out)/\($0)", encoding: .utf8))
        })
        return (status, text.replacingOccurrences(of: out, with: "OUT"), files)
    }

    /// Runs at once print, write and report what one job does, in run order.
    @Test func jobsGiveWhatOneJobGives() throws {
        let path = try suite(Self.coinToss)
        let folder = (path as NSString).deletingLastPathComponent
        let one = try explored(path, ["--runs", "8", "--seed", "40", "--exec", "true", "--jobs", "1", "--junit", "\(folder)/1.xml"],
                               out: "\(folder)/one")
        let four = try explored(path, ["--runs", "8", "--seed", "40", "--exec", "true", "--jobs", "4", "--junit", "\(folder)/4.xml"],
                                out: "\(folder)/four")
        #expect(one.status == 1 && four.status == 1)
        #expect(Self.withoutTimelines(four.lines) == Self.withoutTimelines(one.lines))
        #expect(four.files == one.files && one.files.count == 1, "\(one.files.keys)")
        func testcases(_ file: String) throws -> [String] {
            try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").filter { $0.contains("<testcase") || $0.contains("<failure") }
                .map { String($0.replacing(#/ time="[0-9.]+"/#, with: "")) }
        }
        #expect(try testcases("\(folder)/4.xml") == testcases("\(folder)/1.xml"))
        #expect(try testcases("\(folder)/1.xml").count > 8)
    }

    /// The shards of a CI matrix run, in all, one job's runs; merged, they say what it says and
    /// keep the file it writes.
    @Test func shardsMergedGiveOneJobsSummary() throws {
        let path = try suite(Self.coinToss)
        let folder = (path as NSString).deletingLastPathComponent
        let one = try explored(path, ["--runs", "7", "--seed", "40", "--exec", "true"], out: "\(folder)/one")
        var ran: [String] = []
        for shard in 1 ... 3 {
            let part = try explored(path, ["--runs", "7", "--seed", "40", "--exec", "true", "--shard", "\(shard)/3"], out: "\(folder)/s\(shard)")
            #expect(part.lines.hasPrefix("exploring coin toss (\(path)): 7 runs from seed 40, shard \(shard)/3: runs \(shard), \(shard + 3)"),
                    "\(part.lines)")
            ran += part.lines.split(separator: "\n").filter { $0.hasPrefix("run ") }.map(String.init)
        }
        let runs = one.lines.split(separator: "\n").filter { $0.hasPrefix("run ") }.map(String.init)
        #expect(ran.sorted() == runs.sorted())
        let merged = try explored("--merge", ["\(folder)/s1", "\(folder)/s2", "\(folder)/s3"], out: "\(folder)/merged")
        #expect(merged.status == 1)
        let summary = one.lines.split(separator: "\n").drop { !$0.hasPrefix("7 runs, ") }.joined(separator: "\n")
        #expect(merged.lines == "merged 3 shards of \(path): 7 runs from seed 40\n\(summary)\n", "\(merged.lines)")
        #expect(merged.files == one.files && one.files.count == 1)

        let (missing, _, err) = try RunningBinary.run(["explore", "--merge", "\(folder)/s1", "\(folder)/s3"])
        #expect(missing == 2)
        #expect(err.hasPrefix("error: missing shard 2/3\n"), "\(err)")
        let (twice, _, again) = try RunningBinary.run(["explore", "--merge", "\(folder)/s1", "\(folder)/s1"])
        #expect(twice == 2)
        #expect(again.hasPrefix("error: shard 1/3 is there twice: in \(folder)/s1 and \(folder)/s1\n"), "\(again)")
        let (none, _, nothing) = try RunningBinary.run(["explore", "--merge", folder])
        #expect(none == 2)
        #expect(nothing.hasPrefix("error: \(folder) holds no explore-shard-K-of-N.json (the --out of explore --shard K/N)\n"), "\(nothing)")
        let (absent, _, said) = try RunningBinary.run(["explore", "--merge", folder + "/absent"])
        #expect(absent == 2)
        #expect(said.hasPrefix("error: no such folder: \(folder)/absent\n"), "\(said)")
    }

    /// Each run's CMD gets a folder of its own, empty, removed once the run ends.
    @Test func eachRunHasAFolderOfItsOwn() throws {
        let path = try suite(#"{"name": "folders", "explore": {\#(Self.noChaosNorFaults)}, "steps": [{"advance": "1s"}]}"#)
        let log = path + ".log"
        let command = #"test -d "$CASHOUT_SANDBOX_RUN_DIR" && test -z "$(ls -A "$CASHOUT_SANDBOX_RUN_DIR")" && "#
            + #"touch "$CASHOUT_SANDBOX_RUN_DIR/kept" && echo "$CASHOUT_SANDBOX_RUN_DIR" >> "# + log
        let (status, out, err) = try RunningBinary.run(["explore", path, "--runs", "6", "--seed", "1", "--jobs", "3", "--exec", command])
        #expect(status == 0, "\(out)\(err)")
        let folders = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(Set(folders).count == 6, "\(folders)")
        #expect(folders.allSatisfy { $0.contains("/cashout-sandbox-run-") && !FileManager.default.fileExists(atPath: $0) }, "\(folders)")
    }

    /// SIGINT stops every job's CMD at once, removes their folders, and no run starts a CMD after it.
    @Test func aSignalStopsEveryJob() throws {
        let path = try suite(#"{"name": "patient", "explore": {\#(Self.noChaosNorFaults)}, "steps": [{"advance": "1s"}]}"#)
        let log = path + ".pids"
        let explore = try RunningBinary(["explore", path, "--runs", "6", "--seed", "1", "--jobs", "3", "--out", path + ".found",
                                         "--exec", #"echo "$$ $CASHOUT_SANDBOX_RUN_DIR" >> "# + log + "; exec sleep 1000"])
        let started = { (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n") ?? [] }
        #expect(Waiting.until { started().count == 3 }, "\(started())")
        explore.kill(SIGINT)
        #expect(explore.exitStatus() == 1)
        let commands = started().map { $0.split(separator: " ") }
        #expect(commands.count == 3, "a CMD started after the signal: \(commands)")
        for command in commands {
            #expect(Waiting.until { kill(pid_t(command[0])!, 0) != 0 }, "CMD \(command[0]) outlived explore")
            #expect(!FileManager.default.fileExists(atPath: String(command[1])))
        }
    }

    @Test(arguments: [
        (["--runs", "2"], "error: option '--exec CMD' is required: explore runs your app beside each run"),
        (["--exec", "true", "--runs", "0"], "error: option '--runs' expects a whole number from 1 to 10000, got '0'"),
        (["--exec", "true", "--seed", "-1"], "error: option '--seed' expects a whole number ≥ 0, got '-1'"),
        (["--exec", "true", "--timeout", "soon"], "error: option '--timeout' expects a duration such as 500ms or 10s, at most 1d, got 'soon'"),
        (["--exec", "true", "--jobs", "0"], "error: option '--jobs' expects a whole number from 1 to 64, got '0'"),
        (["--exec", "true", "--shard", "1/2"], "error: option '--shard' needs '--seed S': each of the N jobs must explore the same runs"),
        (["--exec", "true", "--shard", "3/2", "--seed", "1"],
         "error: option '--shard' expects K/N, a job K of N from 1/N to N/N (N at most 10000), got '3/2'"),
        (["--merge", "--exec", "true"], "error: option '--exec' cannot be used with '--merge' (it merges what the shards ran)"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let path = try suite(Self.coinToss)
        let (status, _, err) = try RunningBinary.run(["explore", path] + arguments)
        #expect(status == 2)
        #expect(err.hasPrefix(message + "\n"), "\(err)")
    }

    @Test func aBadExploreSectionIsRefusedWithItsPath() throws {
        let path = try suite(#"{"explore": {"chaos": {"duplicates": 0.1}}, "steps": [{"advance": "1s"}]}"#)
        let (status, out, _) = try RunningBinary.run(["explore", path, "--exec", "true"])
        #expect(status == 1)
        #expect(out.contains("explore.chaos.duplicates: unknown key (did you mean \"duplicate\"? expected one of: duplicate, out_of_order, delayed, "
                             + "forged, replay)"),
                "\(out)")
        let (rate, text, _) = try RunningBinary.run(["validate", try suite(#"{"explore": {"faults": {"error": 2}}, "steps": [{"advance": "1s"}]}"#)])
        #expect(rate == 1)
        #expect(text.contains("explore.faults.error: expected a number from 0 to 1, got 2"), "\(text)")
    }
}
