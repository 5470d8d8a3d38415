import CashoutSandbox
import Glibc
import SandboxBank
import SandboxWire
import SandboxSupport
import SandboxPersistence
import SandboxContract

/// `cashout-sandbox serve`: runs the sandbox until SIGINT or SIGTERM, then stops gracefully.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "Run the sandbox's HTTP server until interrupted"
    static let discussion = """
        Runs the sandbox until SIGINT or SIGTERM. Prints 'listening on http://HOST:PORT' when ready, \
        then the clock, the scenarios loaded, the dashboard and docs URLs and the accounts (with \
        --log-format json, each line an object with its text in "message").
        """

    static let options: [Arguments.Option] = [
        hostOption(default: "localhost = 127.0.0.1 and ::1"),
        .value("port", "PORT", "Port to listen on; 0 picks a free one (default 8080)"),
        .value("threads", "N", "Event-loop threads (default: one per core)"),
        .value("scenario", "FILE", "Load a scenario file (repeatable; later files override earlier ones)", repeatable: true),
        .value("seed", "N", "Fix every random choice (over the scenarios' seed)"),
        .value("clock", "real|manual", "How virtual time moves (default: the scenario's, else real)"),
        .value("time-scale", "N", "Virtual seconds per real second with --clock real (default 1)"),
        .value("log-format", "text|json|off", "Access and event logs on standard output (default text); json puts the "
               + "startup lines in objects too (text in \"message\"); off: startup lines only"),
        .value("max-body", "BYTES", "Largest request body accepted (default 1048576)"),
        .value("state-dir", "DIR", "Journal every change in DIR and carry on from it when started again (default: memory only)"),
        .value("compact-after", "BYTES", "With --state-dir, rewrite the journal as a snapshot once it is larger than BYTES "
            + "and twice its last compacted size (default 67108864)"),
        .flag("recover", "With --state-dir, start even when a journal record cannot be replayed: from the records "
              + "before it, keeping it and the rest in journal.log.unreplayed-OFFSET"),
        .value("request-journal", "N", "Keep the last N requests to the payout APIs and their answers for GET /sandbox/requests "
               + "(default 1000; 0 keeps none)"),
        .value("admin-token", "TOKEN", "Require 'Authorization: Bearer TOKEN' on the admin API (default: $\(adminTokenVariable))"),
        allowedHostOption,
    ]

    /// `--host`, which `test --serve` takes too (`lead`: "With --serve: "), with its own default.
    static func hostOption(_ lead: String = "", default text: String) -> Arguments.Option {
        .value("host", "HOST", "\(lead)\(lead.isEmpty ? "A" : "a")ddress to bind; \(text) (default), "
               + "0.0.0.0 = all IPv4 (an app in another container or machine)")
    }

    /// `--allowed-host`, which `test --serve` takes too.
    static let allowedHostOption = Arguments.Option.value(
        "allowed-host", "NAME", "Answer requests addressed to NAME too while listening on loopback (repeatable; "
            + ".example.com allows its subdomains, * any name; default: $\(HostGuard.variable), comma-separated)", repeatable: true)

    /// The environment variable `--admin-token` defaults to (the option wins when both are set).
    static let adminTokenVariable = "CASHOUT_SANDBOX_ADMIN_TOKEN"

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        if let extra = arguments.positional.first { throw UsageError("unexpected argument '\(extra)' for serve") }
        var configuration = try configuration(from: arguments)
        let vocabulary = configuration.scenarioVocabulary
        // A file that is not there is a usage error (2); one that is there but invalid keeps the
        // server from starting (1), as `validate` and `test` count it a failure.
        for file in arguments.values["scenario"] ?? [] {
            let path = try ScenarioFiles.file(file)
            do {
                configuration.scenarios.append(try ScenarioLoader.load(file: path, vocabulary: vocabulary))
            } catch {
                for line in error.description.split(separator: "\n") { CLI.printError("error: \(line)") }  // each error of the file
                return 1
            }
        }

        // Termination signals are taken by sigwait below, so every thread started from here on
        // must have them blocked; this also makes SIGTERM work when we run as PID 1 in a container.
        SignalWaiter.blockTerminationSignals()
        OpenFileLimit.raise()
        let sandbox: Sandbox
        do {
            sandbox = try Sandbox.launch(configuration)
        } catch {
            printStartFailure(error)
            return error is StateDirectoryError ? 2 : 1
        }
        // In JSON a line for people is an object too, its text in "message" (scripts look for "listening on http://").
        let say = { (text: String, event: String, fields: EventLog.Fields) in
            if let log = configuration.eventLog { log.message(text, event: event, fields: fields) } else { StandardOutput.writeLine(text) }
        }
        if let recovery = sandbox.journalRecovery, let directory = configuration.stateDirectory {
            say("state: \(recovery.records) changes replayed from \(directory)/journal.log", "server.state_replayed",
                [("changes", .number(recovery.records)), ("journal", .string("\(directory)/journal.log"))])
            if let problem = recovery.problem { CLI.printError("warning: journal: \(problem)") }
        }
        for (index, address) in sandbox.addresses.enumerated() {
            say("\(index == 0 ? "listening on" : "also listening on") http://\(address)", "server.listening",
                [("url", .string("http://\(address)"))])
        }
        for (text, event, fields) in startupLines(sandbox, scenarios: configuration.scenarios) { say(text, event, fields) }
        if configuration.adminToken != nil {
            say("admin API: requests to /sandbox/... need Authorization: Bearer <admin token>", "server.admin_token", [])
        } else if !Sandbox.listensOnLoopbackOnly(configuration.server) {
            say("admin API: open to anyone who can reach this address (it hands out every merchant's secret and can reset "
                + "the sandbox); set --admin-token or $\(adminTokenVariable) to require a token", "server.admin_open", [])
        }
        for (text, event, fields) in sandbox.accountLines {
            say(text, event, fields.map { ($0, .string($1)) })
        }
        let signal = SignalWaiter.wait()
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        say("received \(name), stopping", "server.stopping", [("signal", .string(name))])
        sandbox.stop()
        say("stopped", "server.stopped", [])
        configuration.eventLog?.flush()
        return 0
    }

    /// Says why a sandbox could not start (`error: cannot start: ...`), and what to do about it.
    static func printStartFailure(_ error: any Error) {
        CLI.printError("error: cannot start: \(error)")
        if case JournalError.unreplayable(let path, _, let offset, _) = error {
            CLI.printError("hint: 'serve --recover' starts from the records before it and keeps it and the rest in \(path).unreplayed-\(offset)")
        }
        if let socket = error as? SocketError, socket.code == EADDRINUSE {
            CLI.printError("hint: another program holds that port (a sandbox started earlier?): stop it, "
                           + "or choose another with --port (0 picks a free one)")
        }
    }

    /// `--port`: 8080 unless given; 0 picks a free port.
    static func port(_ arguments: Arguments) throws(UsageError) -> Int {
        try arguments.value("port", default: 8080, expected: "a port number (0-65535)") {
            Int($0).flatMap { (0 ... 65535).contains($0) ? $0 : nil }
        }
    }

    /// The configuration the options ask for; `environment` reads environment variables.
    static func configuration(from arguments: Arguments,
                              environment: (String) -> String? = { getenv($0).map { String(cString: $0) } })
        throws(UsageError) -> Sandbox.Configuration {
        var configuration = Sandbox.Configuration()
        configuration.server.host = arguments.value("host") ?? "localhost"
        configuration.server.port = try port(arguments)
        configuration.server.threads = try arguments.value(
            "threads", default: configuration.server.threads, expected: "a thread count (1-256)") {
            Int($0).flatMap { (1 ... 256).contains($0) ? $0 : nil }
        }
        configuration.server.limits.maxBodyBytes = try arguments.value(
            "max-body", default: configuration.server.limits.maxBodyBytes, expected: "a size in bytes (1-1073741824)") {
            Int($0).flatMap { (1 ... 1 << 30).contains($0) ? $0 : nil }
        }
        if arguments.has("clock") {
            configuration.clockMode = try arguments.value("clock", default: .real, expected: "real or manual") {
                VirtualClock.Mode(rawValue: $0)
            }
        }
        configuration.timeScale = try arguments.value("time-scale", default: 1, expected: "a number from 0.001 to 1000000") {
            Double($0).flatMap { (0.001 ... VirtualClock.maximumTimeScale).contains($0) ? $0 : nil }
        }
        if arguments.has("seed") {
            configuration.seed = try arguments.value("seed", default: 0, expected: "a whole number ≥ 0") { UInt64($0) }
        }
        let format = try arguments.value("log-format", default: "text", expected: "text, json or off") {
            ["text", "json", "off"].contains($0) ? $0 : nil
        }
        configuration.server.accessLog = AccessLog.Format(rawValue: format).map { .standardOutput(format: $0) }
        configuration.eventLog = AccessLog.Format(rawValue: format).map { EventLog.standardOutput(format: $0) }
        configuration.requestJournalCapacity = try arguments.value(
            "request-journal", default: configuration.requestJournalCapacity, expected: "a number of requests (0-1000000)") {
            Int($0).flatMap { (0 ... 1_000_000).contains($0) ? $0 : nil }
        }
        configuration.adminToken = try adminToken(arguments, environment: environment)
        configuration.stateDirectory = arguments.value("state-dir")
        configuration.recoverJournal = arguments.has("recover")
        if configuration.recoverJournal, configuration.stateDirectory == nil { throw UsageError("option '--recover' needs '--state-dir DIR'") }
        configuration.allowedHosts = try allowedHosts(arguments, environment: environment)
        configuration.journalCompactionBytes = try arguments.value(
            "compact-after", default: configuration.journalCompactionBytes, expected: "a size in bytes (4096-1099511627776)") {
            Int($0).flatMap { (4096 ... 1 << 40).contains($0) ? $0 : nil }
        }
        return configuration
    }

    /// `--allowed-host` values, else `CASHOUT_SANDBOX_ALLOWED_HOSTS` split at commas: host names
    /// (letters, digits, `-`, `.`, a leading `.`), IPv6 addresses in brackets, or `*`.
    static func allowedHosts(_ arguments: Arguments, environment: (String) -> String? = { getenv($0).map { String(cString: $0) } })
        throws(UsageError) -> [String] {
        let given = arguments.values["allowed-host"]
            ?? (environment(HostGuard.variable) ?? "").split(separator: ",").map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
        for name in given where name != "*" {
            let valid = name.utf8.count <= 253 && !name.isEmpty
                && (name.hasPrefix("[") ? name.hasSuffix("]") && name.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
                    : name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") })
            guard valid else {
                throw UsageError("option '--allowed-host' expects a host name such as qa-box, .example.com, [fd00::1] or *, got '\(name)'")
            }
        }
        return given
    }

    /// `--admin-token`, else a non-empty `CASHOUT_SANDBOX_ADMIN_TOKEN`, else none. A token is
    /// visible ASCII without spaces, as an `Authorization: Bearer` header can carry it. (`report`
    /// reads the token it sends the same way.)
    static func adminToken(_ arguments: Arguments, environment: (String) -> String?) throws(UsageError) -> String? {
        let isToken = { (text: String) in !text.isEmpty && text.utf8.allSatisfy { (0x21 ... 0x7E).contains($0) } }
        if let option = arguments.value("admin-token") {
            guard isToken(option) else {
                throw UsageError("option '--admin-token' expects a token of visible ASCII characters without spaces, got '\(option)'")
            }
            return option
        }
        guard let value = environment(adminTokenVariable), !value.isEmpty else { return nil }
        guard isToken(value) else {
            throw UsageError("environment variable \(adminTokenVariable) must be a token of visible ASCII characters without spaces")
        }
        return value
    }
}
