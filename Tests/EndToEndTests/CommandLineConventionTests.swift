import Foundation
import Testing

/// The conventions every command keeps, run through the built binary: help, version, errors
/// that name the command's help and the option meant, and the exit statuses the Running it guide documents
/// (0 success; 1 a failure; 2 a bad command line or a file that is not there).
@Suite struct CommandLineConventionTests {
    static let commands = ["serve", "sign", "validate", "test", "explore", "report", "openapi", "schema", "postman", "completions", "help"]

    @Test(arguments: commands)
    func everyCommandAnswersHelpAndVersion(command: String) throws {
        let (status, help, _) = try RunningBinary.run([command, "--help"])
        #expect(status == 0)
        #expect(help.hasPrefix("Usage: cashout-sandbox \(command)"))
        #expect(help.contains("  -h, --help "))
        #expect(try RunningBinary.run([command, "-h"]).1 == help)
        #expect(try RunningBinary.run(["help", command]).1 == help)
        let (versionStatus, version, _) = try RunningBinary.run([command, "--version"])
        #expect(versionStatus == 0)
        #expect(version == "cashout-sandbox 0.3.0\n")
    }

    @Test func helpIsWrappedAt80Columns() throws {
        for words in [["--help"], ["help"]] + Self.commands.map({ [$0, "--help"] }) {
            let (status, help, _) = try RunningBinary.run(words)
            #expect(status == 0)
            for line in help.split(separator: "\n") {
                #expect(line.count <= 80, "\(words): \(line)")
            }
        }
        // The usage line goes on under the command when it is too long for one line.
        let serve = try RunningBinary.run(["serve", "--help"]).1.split(separator: "\n")
        #expect(serve[0] == "Usage: cashout-sandbox serve [--host HOST] [--port PORT] [--threads N]")
        #expect(serve[1] == "                             [--scenario FILE]... [--seed N]")
    }

    @Test func theProgramsHelpListsEveryCommandAndTheExitStatuses() throws {
        let (status, help, _) = try RunningBinary.run(["--help"])
        #expect(status == 0)
        for command in Self.commands { #expect(help.contains("\n  \(command) ")) }
        #expect(help.contains("Exit status: 0 success; 1 a failure"))
        #expect(try RunningBinary.run(["-h"]).1 == help)
        #expect(try RunningBinary.run(["help"]).1 == help)
        // No command at all: the help on standard error, and 2.
        let (none, out, err) = try RunningBinary.run([])
        #expect(none == 2 && out.isEmpty && err == help)
    }

    /// Each error names the command's help and, when one is close (fewer than 4 edits, or the
    /// only one the word begins), the option or command meant.
    @Test(arguments: [
        (["serve", "--prot", "80"], "unknown option '--prot' for serve; did you mean '--port'?", "serve"),
        (["serve", "-port", "80"], "unknown option '-port' for serve; did you mean '--port'?", "serve"),
        (["serve", "--sce", "x.json"], "unknown option '--sce' for serve; did you mean '--scenario'?", "serve"),
        (["serve", "--log-fromat=json"], "unknown option '--log-fromat' for serve; did you mean '--log-format'?", "serve"),
        (["serve", "-p", "80"], "unknown option '-p' for serve", "serve"),
        (["serve", "--bogus"], "unknown option '--bogus' for serve", "serve"),
        (["test", "--fitler", "x"], "unknown option '--fitler' for test; did you mean '--filter'?", "test"),
        (["postman", "--enviroment"], "unknown option '--enviroment' for postman; did you mean '--environment'?", "postman"),
        (["validate", "--verison"], "unknown option '--verison' for validate; did you mean '--version'?", "validate"),
        (["serv"], "unknown command 'serv'; did you mean 'serve'?", nil),
        (["tset"], "unknown command 'tset'; did you mean 'test'?", nil),
        (["completion", "bash"], "unknown command 'completion'; did you mean 'completions'?", nil),
        (["launch"], "unknown command 'launch'", nil),
        (["--port", "8080"], "unknown option '--port'; did you mean 'cashout-sandbox serve --port' or 'cashout-sandbox test --port' "
            + "or 'cashout-sandbox show --port'?", nil),
        (["--base-url=x"], "unknown option '--base-url'; did you mean 'cashout-sandbox openapi --base-url' or 'cashout-sandbox postman --base-url'?",
         nil),
        (["--verson"], "unknown option '--verson'; did you mean '--version'?", nil),
        (["help", "srve"], "unknown command 'srve'; did you mean 'serve'?", "help"),
        (["completions", "bsh"], "unknown shell 'bsh' (expected bash, zsh or fish); did you mean 'bash'?", "completions"),
        (["completions"], "completions takes one shell: bash, zsh, fish", "completions"),
    ] as [([String], String, String?)])
    func errorsNameTheHelpAndSuggestTheClosest(words: [String], message: String, command: String?) throws {
        let (status, out, err) = try RunningBinary.run(words)
        #expect(status == 2)
        #expect(out.isEmpty)
        #expect(err == "error: \(message)\nSee 'cashout-sandbox\(command.map { " \($0)" } ?? "") --help'.\n")
    }

    /// Every command's statuses: 0 when it did its job, 1 when what it checked or ran failed, 2
    /// when the command line cannot be run as written.
    @Test func exitStatusesAreTheSameForEveryCommand() throws {
        let folder = NSTemporaryDirectory() + "exit-statuses-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/empty", withIntermediateDirectories: true)
        let good = folder + "/good.json", bad = folder + "/bad.json", failing = folder + "/failing.json"
        try #"{"steps": [{"advance": "1s"}]}"#.write(toFile: good, atomically: true, encoding: .utf8)
        try #"{"steps": [{"advance": "soon"}]}"#.write(toFile: bad, atomically: true, encoding: .utf8)
        try #"{"steps": [{"create_cashout": {}, "as": "c"}, {"expect_cashout": {"ref": "c", "status": "COMPLETED"}}]}"#
            .write(toFile: failing, atomically: true, encoding: .utf8)
        let cases: [([String], Int32)] = [
            (["sign", "{}"], 0), (["sign", "--control", "x"], 0), (["openapi"], 0), (["schema"], 0), (["postman"], 0), (["completions", "fish"], 0),
            (["validate", good], 0), (["test", good], 0), (["help", "test"], 0),
            (["validate", good, bad], 1), (["test", good, failing], 1), (["test", bad], 1), (["serve", "--scenario", bad], 1),
            (["sign", "a", "b"], 2), (["sign", "--control", "x", "{}"], 2), (["openapi", "extra"], 2),
            (["schema", "extra"], 2), (["postman", "--base-url", "ftp://x"], 2),
            (["serve", "extra"], 2), (["serve", "--port", "http"], 2), (["serve", "--scenario", folder + "/none.json"], 2),
            (["serve", "--scenario", folder], 2), (["validate", folder + "/none.json"], 2), (["validate", folder + "/empty"], 2),
            (["test", folder + "/none"], 2), (["test", folder + "/empty"], 2), (["test", good, "--filter", "nothing"], 2),
            (["help", "a", "b"], 2), (["completions", "bash", "zsh"], 2), (["report"], 2), (["report", "http://127.0.0.1:1"], 2),
        ]
        for (words, expected) in cases {
            let (status, _, err) = try RunningBinary.run(words)
            #expect(status == expected, "\(words): \(err)")
            if expected == 2 { #expect(err.hasSuffix("See 'cashout-sandbox \(words[0]) --help'.\n"), "\(words): \(err)") }
        }
    }

    /// `--` ends the options: a BODY may then start with `-`.
    @Test func aDoubleDashEndsTheOptions() throws {
        let (status, out, _) = try RunningBinary.run(["sign", "--secret", "k", "--", "--not-an-option"])
        #expect(status == 0)
        #expect(out == "a7ca0c7ebf40ebfc96737faf92e044c2c7761c8abbdc0e4b836c2e1902192184\n")
    }
}
