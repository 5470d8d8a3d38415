import CashoutSandbox
import Glibc
import SandboxCrypto
import SandboxD24
import SandboxHTTP

/// `cashout-sandbox sign`: the `Payload-Signature` of a body (lowercase hex HMAC-SHA256, D24
/// D24's page "Calculating the Payload-Signature"), or with `--control` a notification's `control` string (its page
/// "Notifications"), for curl sessions.
enum SignCommand: Command {
    static let name = "sign"
    static let summary = "Print the Payload-Signature of a request body (or a notification control)"
    static let discussion = """
        Prints the Payload-Signature of BODY (or of standard input when BODY is absent): the \
        lowercase hex HMAC-SHA256 of its exact bytes. With --control EXTERNAL_ID (and no BODY), \
        prints the uppercase control string of a notification for EXTERNAL_ID instead.
        """

    static let options: [Arguments.Option] = [
        .value("secret", "SECRET", "The API signature (HMAC key) (default sandbox_secret)"),
        .value("control", "EXTERNAL_ID", "Print the notification control for this external_id instead"),
    ]

    static let positional: Positional? = Positional(
        synopsis: "[BODY]", help: "The exact request body (quote it; '--' before one that starts with '-')", completion: .nothing)

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        guard arguments.positional.count <= 1 else { throw UsageError("sign takes one BODY argument; quote it") }
        let key = HMACSHA256.Key(arguments.value("secret") ?? "sandbox_secret")
        if let externalID = arguments.value("control") {
            guard arguments.positional.isEmpty else { throw UsageError("--control takes no BODY") }
            StandardOutput.writeLine(D24Signature.control(externalID: externalID, key: key))
            return 0
        }
        let body = arguments.positional.first.map { Array($0.utf8) } ?? readStandardInput()
        StandardOutput.writeLine(D24Signature.payload(of: body, key: key))
        return 0
    }

    private static func readStandardInput() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            guard n > 0 else { return bytes }
            bytes += buffer[0 ..< n]
        }
    }
}
