import CashoutSandbox
import FoundationEssentials
import Glibc
import SandboxBank
import SandboxWire
import SandboxSupport
import SandboxContract

/// `cashout-sandbox show RECORD`: a finished run, as it ended, in a sandbox of its own (the Testing
/// your app guide, "A finished run in the dashboard"): its record (`NAME.run`, which `explore`
/// writes beside each file and `test --serve --timeline` beside its page) put in force, served
/// until SIGINT or SIGTERM, so that the dashboard shows its cashouts, requests, webhooks,
/// findings and timelines.
enum ShowCommand: Command {
    static let name = "show"
    static let summary = "Serve a finished run's end state (NAME.run) for the dashboard"
    static let discussion = """
        Serves the end state of a run that is over, from the record written beside it (explore writes \
        NAME.run beside each NAME.json; test --serve --timeline FILE.html writes FILE.run): its cashouts \
        with their histories and webhooks, every request of the app's with its body and answer, the \
        integration report, the app's ledger as last read, and each cashout's timeline with the clock's \
        stops, in the dashboard and the admin API, on a manual clock standing where the run ended. \
        Nothing runs again: it is the run as it was. RECORD may also be the NAME.json or NAME.html \
        beside it. Prints 'listening on http://HOST:PORT'; runs until SIGINT or SIGTERM.
        """

    static let options: [Arguments.Option] = [
        ServeCommand.hostOption(default: "localhost = 127.0.0.1 and ::1"),
        .value("port", "PORT", "Port to listen on; 0 picks a free one (default 8080)"),
    ]

    static let positional: Positional? = Positional(synopsis: "RECORD", help: "A run's record: NAME.run (or the NAME.json or NAME.html "
                                                    + "beside it)", completion: .files)

    /// The record beside a file explore wrote or a timeline's page (NAME.json, NAME.html, NAME.timeline.json, or a page
    /// named without `.html`: NAME.run beside each), or the record itself (NAME.run).
    static func record(beside path: String) -> String {
        if path.hasSuffix(".run") { return path }
        for suffix in [".timeline.json", ".json", ".html"] where path.hasSuffix(suffix) { return String(path.dropLast(suffix.count)) + ".run" }
        return path + ".run"
    }

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        guard arguments.positional.count == 1 else {
            throw UsageError("show takes one run record (NAME.run), got \(arguments.positional.count)")
        }
        let path = record(beside: arguments.positional[0])
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw UsageError("no run record at \(path): explore writes one beside each file, test --serve --timeline FILE.html "
                             + "beside its page")
        }
        guard let record = try? JSON.parse(Array(bytes)) else {
            CLI.printError("error: \(path): not a run record (not JSON)")
            return 1
        }
        var configuration = Sandbox.Configuration()
        configuration.server.host = arguments.value("host") ?? "localhost"
        configuration.server.port = try ServeCommand.port(arguments)
        configuration.clockMode = .manual
        if let scenario = record["scenario"], scenario != .null {
            do {
                configuration.scenarios = [try ScenarioLoader.load(scenario.serialized(), file: path, vocabulary: configuration.scenarioVocabulary)]
            } catch {
                CLI.printError("error: \(path): its scenario does not load: \(error)")
                return 1
            }
        }
        SignalWaiter.blockTerminationSignals()
        let sandbox: Sandbox
        do {
            sandbox = try Sandbox.launch(configuration)
        } catch {
            ServeCommand.printStartFailure(error)
            return 1
        }
        if let problem = sandbox.restore(runRecord: record) {
            CLI.printError("error: \(path): \(problem)")
            sandbox.stop()
            return 1
        }
        for (index, address) in sandbox.addresses.enumerated() {
            StandardOutput.writeLine("\(index == 0 ? "listening on" : "also listening on") http://\(address)")
        }
        let title = record["scenario"]?["name"]?.stringValue ?? path
        StandardOutput.writeLine("showing \(title), as it ended at \(sandbox.bank.clock.now.iso8601): "
                                 + "\(sandbox.baseURL.absoluteString)/ (the dashboard); Ctrl-C ends it")
        _ = SignalWaiter.wait()
        sandbox.stop()
        return 0
    }
}
