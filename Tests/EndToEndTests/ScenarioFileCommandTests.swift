import Foundation
import Testing

/// `validate` and `test` on the same files: folders, step references checked at load with the
/// same message in both, a load error as one clean line.
@Suite struct ScenarioFileCommandTests {
    private func folder(_ files: [String: String]) throws -> String {
        let path = NSTemporaryDirectory() + "scenario-files-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: "\(path)/\(name)", atomically: true, encoding: .utf8) }
        return path
    }

    private static let good = #"{"steps": [{"create_cashout": {}, "as": "c1"}, {"expect_cashout": {"ref": "c1", "status": "PENDING"}}]}"#
    private static let badRef = #"{"steps": [{"create_cashout": {}, "as": "c1"}, {"expect_cashout": {"ref": "c2", "status": "PENDING"}}]}"#
    private static let badTemplate = #"{"steps": [{"request": {"method": "GET", "path": "/sandbox/cashouts/{{c1.cashout_id}}"}}]}"#

    @Test func validateTakesFoldersAsTestDoesAndChecksReferences() throws {
        let path = try folder(["a.json": Self.good, "b.json": Self.badRef, "c.json": Self.badTemplate, "schema.json": "{}", "notes.txt": "x"])
        let (status, out, _) = try RunningBinary.run(["validate", path])
        #expect(status == 1)
        #expect(out == """
            ok \(path)/a.json
            error: \(path)/b.json: steps[1].expect_cashout.ref: expected the "as" of an earlier step, got "c2" (named so far: c1)
            error: \(path)/c.json: steps[0].request.path: expected {{NAME.cashout_id}} with NAME the "as" of an earlier step, got {{c1.cashout_id}} \
            (none named so far)

            """)
        // `test` refuses the same files when it loads them, with the same message, one line each.
        let (testStatus, testOut, _) = try RunningBinary.run(["test", path])
        #expect(testStatus == 1)
        #expect(testOut == """
            FAIL \(path)/b.json: steps[1].expect_cashout.ref: expected the "as" of an earlier step, got "c2" (named so far: c1)
            FAIL \(path)/c.json: steps[0].request.path: expected {{NAME.cashout_id}} with NAME the "as" of an earlier step, got {{c1.cashout_id}} \
            (none named so far)
            PASS a (\(path)/a.json, 2 steps)
            1 passed, 2 failed

            """)
    }

    /// Every error of a file in one run, each on its line with the file and the path, as a
    /// compiler reports them; `test` shows the first on the FAIL line and the others under it.
    @Test func everyErrorOfAFileInOneRun() throws {
        let text = #"{"sede": 1, "bank": {"rules": [{"when": {"country": "BR"}, "then": [{"after": "1m", "status": "REJECTED", "rejection_code": "#
                   + #""eight-oh-one"}]}]}, "steps": [{"advance": "soon"}]}"#
        let path = try folder(["bad.json": text])
        let (status, out, _) = try RunningBinary.run(["validate", path])
        #expect(status == 1)
        #expect(out == """
            error: \(path)/bad.json: sede: unknown key (did you mean "seed"? expected one of: $schema, name, description, written_for, \
            expect_failure, needs_app, seed, clock, merchants, prism_merchants, users, bank, faults, webhooks, app, explore, report, steps)
            error: \(path)/bad.json: bank.rules[0].then[0].rejection_code: expected a rejection code that the API it reaches answers (d24: one of \
            the 25 codes of its list, 800 to 826), got "eight-oh-one"
            error: \(path)/bad.json: steps[0].advance: expected a duration such as "30s", "1h5m" or "2d", got "soon"

            """)
        let (testStatus, testOut, _) = try RunningBinary.run(["test", path])
        #expect(testStatus == 1)
        #expect(testOut == """
            FAIL \(path)/bad.json: sede: unknown key (did you mean "seed"? expected one of: $schema, name, description, written_for, \
            expect_failure, needs_app, seed, clock, merchants, prism_merchants, users, bank, faults, webhooks, app, explore, report, steps)
              bank.rules[0].then[0].rejection_code: expected a rejection code that the API it reaches answers (d24: one of the 25 codes of its \
            list, 800 to 826), got "eight-oh-one"
              steps[0].advance: expected a duration such as "30s", "1h5m" or "2d", got "soon"
            0 passed, 1 failed

            """)
    }

    @Test func aJSONErrorSaysTheLineAndColumnOnce() throws {
        let path = try folder(["broken.json": "{\n  \"steps\": [\n    {\"advance\": \"1s\"},\n  ]\n}\n"])
        let message = "\(path)/broken.json: (top level): invalid JSON: trailing comma in array at line 3, column 22 (byte offset 36)"
        #expect(try RunningBinary.run(["validate", path]).1 == "error: \(message)\n")
        #expect(try RunningBinary.run(["test", path]).1 == "FAIL \(message)\n0 passed, 1 failed\n")
        let (status, _, err) = try RunningBinary.run(["serve", "--scenario", "\(path)/broken.json"])
        #expect(status == 1)
        #expect(err == "error: \(message)\n")
    }

    @Test func validateWithoutPathsChecksScenariosLikeTest() throws {
        let path = try folder([:])
        try FileManager.default.createDirectory(atPath: path + "/scenarios", withIntermediateDirectories: true)
        try Self.good.write(toFile: path + "/scenarios/a.json", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RunningBinary.path)
        process.arguments = ["validate"]
        process.currentDirectoryURL = URL(fileURLWithPath: path)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "ok scenarios/a.json\n")
    }

    @Test func aFolderWithoutScenariosOrStepsSaysSo() throws {
        let empty = try folder(["notes.txt": "x"])
        let (status, _, err) = try RunningBinary.run(["validate", empty])
        #expect(status == 2)
        #expect(err == "error: no scenario files (*.json) in \(empty)\nSee 'cashout-sandbox validate --help'.\n")
        let bankOnly = try folder(["bank.json": #"{"name": "bank only"}"#])
        let (testStatus, _, testErr) = try RunningBinary.run(["test", bankOnly])
        #expect(testStatus == 2)
        #expect(testErr == "error: no scenario with steps in \(bankOnly) (a file needs \"steps\" to be a test)\nSee 'cashout-sandbox test --help'.\n")
    }
}
