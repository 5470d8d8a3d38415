import Testing
@testable import cashout_sandbox
@testable import SandboxWire
@testable import SandboxContract

/// The pieces the CLI's help and hints are made of.
@Suite struct HelpTextTests {
    @Test(arguments: [("kitten", "sitting", 3), ("", "abc", 3), ("abc", "", 3), ("--prot", "--port", 2), ("same", "same", 0), ("é", "e", 1)])
    func editDistanceCountsInsertionsDeletionsAndSubstitutions(a: String, b: String, distance: Int) {
        #expect(EditDistance.between(Array(a), Array(b)) == distance)
    }

    @Test func theSuggestionIsTheOnlyOneTheWordBeginsElseTheClosest() {
        let options = ["--host", "--port", "--scenario", "--seed", "--state-dir"]
        #expect(Suggestion.closest(to: "--sce", among: options) == "--scenario")
        #expect(Suggestion.closest(to: "--st", among: options) == "--state-dir")
        #expect(Suggestion.closest(to: "--sed", among: options) == "--seed")
        #expect(Suggestion.closest(to: "--prot", among: options) == "--port")
        #expect(Suggestion.closest(to: "--xyzzy", among: options) == nil)
        #expect(Suggestion.didYouMean("--hots", among: options) == "; did you mean '--host'?")
        #expect(Suggestion.didYouMean("--nothing-like-it", among: options) == "")
        // A scenario file's keys: a short word as far from a key as from the others is no typo of it.
        let keys = ["$schema", "name", "description", "seed", "steps"]
        #expect(Suggestion.closest(to: "nmae", among: keys) == "name")
        #expect(Suggestion.closest(to: "file", among: keys) == nil)
        #expect(Suggestion.closest(to: "$ref", among: keys) == nil)
    }

    @Test func wrappingBreaksAtSpacesBefore80ColumnsAndIndentsWhatFollows() {
        let words = Array(repeating: "word", count: 40)
        let text = HelpText.wrap(words, start: 10, indent: 6)
        let lines = text.split(separator: "\n")
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines[0].count == 69)  // with the 10 columns before it: 79, and one more word would pass 80
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("      word") })
        // A word longer than a line has one to itself.
        let long = String(repeating: "x", count: 90)
        #expect(HelpText.wrap(["a", long, "b"], start: 0, indent: 2) == "a\n  \(long)\n  b")
    }

    @Test func aLabelWiderThanItsColumnHasItsTextOnTheNextLine() {
        let text = HelpText.columns([("--short", "fits"), ("--a-label-wider-than-the-column X", "below")])
        #expect(text == """
              --short                 fits
              --a-label-wider-than-the-column X
                                      below
            """)
    }

    /// The tables are the one home of an option: its help line, its usage word and its completion.
    @Test(arguments: CLI.commands.map { $0.name })
    func everyOptionIsInItsCommandsHelpAndCompletions(name: String) throws {
        let command = try #require(CLI.command(named: name))
        for option in command.options + Arguments.Option.common {
            #expect(command.usage.contains("  \(option.label)"))
            for shell in CompletionsCommand.shells {
                #expect(shell.script(CLI.commands).contains(option.name), "\(shell.name): \(option.name)")
            }
        }
        for option in command.options { #expect(command.usage.contains(option.synopsis)) }
    }

    @Test func valueNamesSayWhatAShellCompletes() {
        #expect(Arguments.Option.value("clock", "real|manual", "").completion == .words(["real", "manual"]))
        #expect(Arguments.Option.value("scenario", "FILE", "").completion == .files)
        #expect(Arguments.Option.value("state-dir", "DIR", "").completion == .folders)
        #expect(Arguments.Option.value("port", "PORT", "").completion == .nothing)
        #expect(Arguments.Option.value("scenario", "FILE", "", repeatable: true).synopsis == "[--scenario FILE]...")
        #expect(Arguments.Option.common[0].label == "-h, --help")
    }
}
