@testable import CashoutSandbox
import Foundation
import Glibc
@testable import SandboxWire
@testable import SandboxSupport
@testable import SandboxContract
import TestHelpers
import Testing
@testable import SandboxBank

/// A scenario's content never makes the sandbox open a file. The only file the loader opens is the
/// one it is given (`serve --scenario FILE`, `validate`/`test` paths, `.file(path)`); `$schema` is
/// accepted for editors and never read, and the format has no include or reference key (an unknown
/// key is refused). Proved with a FIFO: opening one for reading blocks until a writer comes, and a
/// writer's non-blocking open fails with ENXIO while no reader has it open.
@Suite struct ScenarioFileAccessTests {
    static let topLevelKeys = "$schema, name, description, written_for, expect_failure, needs_app, seed, clock, merchants, prism_merchants, users, "
                              + "bank, faults, webhooks, app, explore, report, steps"

    /// A FIFO in a fresh folder, and a check that nobody has it open for reading.
    private struct Trap {
        let folder: String
        let path: String

        init() throws {
            folder = NSTemporaryDirectory() + "scenario-trap-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            path = folder + "/schema.json"
            #expect(mkfifo(path, 0o600) == 0)
        }

        /// True when no reader has the FIFO open (or is blocked opening it).
        var unread: Bool {
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            return fd < 0 && errno == ENXIO
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    private func sandbox() throws -> Sandbox {
        var configuration = Sandbox.Configuration()
        configuration.clockMode = .manual
        return try Sandbox.launch(configuration)
    }

    private func load(_ sandbox: Sandbox, _ scenario: String) throws -> HTTPResponse {
        try TestHTTP.send(method: "POST", url: "\(sandbox.baseURL)/sandbox/scenario", body: Array(scenario.utf8))
    }

    @Test(.timeLimit(.minutes(Waiting.testMinutes)))
    func pathsInAScenarioLoadedOverHTTPAreNeverOpened() throws {
        let trap = try Trap()
        defer { trap.remove() }
        #expect(trap.unread)
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let scenario = #"""
            {"$schema": "\#(trap.path)", "name": "\#(trap.path)", "description": "/etc/passwd",
             "merchants": [{"login": "acme", "pass": "/etc/shadow", "secret": "\#(trap.path)", "read_only_key": "file:///etc/passwd",
                            "balance": {"USD": "10.00"}}],
             "bank": {"rules": [{"when": {"bank_account": "/etc/passwd"}, "then": [{"after": "1m", "status": "DELIVERED"}]}]}}
            """#
        let response = try load(sandbox, scenario)
        #expect(response.status == 200)
        #expect(response.bodyText == #"{"loaded":"\#(trap.path)","merchants":["sandbox_login","76561198000000001","DefaultMerchantId","acme"],"#
                                     + #""rules":39}"#)
        #expect(trap.unread)
        let passwd = try load(sandbox, #"{"$schema": "/etc/passwd", "name": "plain"}"#)
        #expect(passwd.bodyText == #"{"loaded":"plain","merchants":["sandbox_login","76561198000000001","DefaultMerchantId","acme"],"rules":39}"#)
    }

    @Test(.timeLimit(.minutes(Waiting.testMinutes)))
    func aScenarioFileNamingAnotherFileIsReadAloneByTheLoader() throws {
        let trap = try Trap()
        defer { trap.remove() }
        let file = trap.folder + "/scenario.json"
        try #"{"$schema": "\#(trap.path)", "name": "with a schema", "description": "\#(trap.path)"}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let scenario = try ScenarioLoader.load(file: file, vocabulary: Sandbox.Configuration().scenarioVocabulary)
        #expect(scenario.name == "with a schema")
        #expect(trap.unread)
    }

    @Test(arguments: ["include", "includes", "$ref", "extends", "import", "file"])
    func noKeyIncludesAnotherFile(key: String) throws {
        let sandbox = try sandbox()
        defer { sandbox.stop() }
        let response = try load(sandbox, #"{"name": "x", "\#(key)": "/etc/passwd"}"#)
        #expect(response.status == 400)
        // The loader's usual suggestion of the nearest key, which names no file either.
        let nearest = key == "import" ? #"did you mean \"report\"? "# : ""
        #expect(response.bodyText == #"{"code":400,"message":"\#(key): unknown key (\#(nearest)expected one of: \#(Self.topLevelKeys))"}"#)
        let nested = try load(sandbox, #"{"bank": {"\#(key)": "/etc/passwd"}}"#)
        #expect(nested.status == 400)
        #expect(nested.bodyText.hasPrefix(#"{"code":400,"message":"bank.\#(key): unknown key"#))
    }
}
