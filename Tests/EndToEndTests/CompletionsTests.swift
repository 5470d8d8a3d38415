import Foundation
import Testing

/// `cashout-sandbox completions bash`, loaded in a real bash: registered for the command, and what
/// its function offers for command lines, as a TAB would. (.ci/check-completions does the same for
/// zsh and fish.)
@Suite struct CompletionsTests {
    /// Runs `script` in bash after loading the completion script, from the package root (so
    /// `scenarios/` is there to complete); `complete_line WORD...` prints what TAB offers.
    private func bash(_ script: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", """
            source <("$0" completions bash) || exit 1
            complete_line() { COMP_WORDS=(cashout-sandbox "$@"); COMP_CWORD=$#; COMPREPLY=(); _cashout_sandbox; echo "${COMPREPLY[*]}"; }
            \(script)
            """, RunningBinary.path]
        process.currentDirectoryURL = root
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test func bashRegistersTheFunction() throws {
        #expect(try bash("complete -p cashout-sandbox") == "complete -F _cashout_sandbox cashout-sandbox\n")
    }

    @Test(arguments: [
        (["se"], "serve"),
        ([""], "serve sign validate test explore show report openapi schema postman completions help -h --help --version"),
        (["rep"], "report"),
        (["report", "--"], "--account --follow-up-within --polling-limit --polling-per --json --admin-token --help --version"),
        (["serve", "--cl"], "--clock"),
        (["serve", "--clock", "m"], "manual"),
        (["serve", "--clock", "=", "r"], "real"),  // --clock=r: bash splits the word at '='
        (["serve", "--log-format", ""], "text json off"),
        (["serve", "--port", ""], ""),
        (["serve", "--state-dir", "Sour"], "Sources"),
        (["serve", "--scenario", "scenarios/late-reversal-8"], "scenarios/late-reversal-826.json"),
        (["test", "scenarios/mannco-c"], "scenarios/mannco-cashout-completes.json"),
        (["test", "--f"], "--filter"),
        (["validate", "-"], "-h --help --version"),
        (["sign", "--"], "--api --secret --control --help --version"),
        (["sign", "--api", ""], "d24 prism"),
        (["postman", ""], "--base-url --environment -h --help --version"),
        (["completions", ""], "bash zsh fish"),
        (["help", "va"], "validate"),
    ] as [([String], String)])
    func bashOffersWhatTheParserTakes(words: [String], offers: String) throws {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        #expect(try bash("complete_line \(quoted)") == offers + "\n")
    }
}
