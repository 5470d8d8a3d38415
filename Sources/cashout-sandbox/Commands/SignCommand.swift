import CashoutSandbox
import Glibc
import SandboxSupport
import SandboxD24
import SandboxWire
import SandboxPrism

/// `cashout-sandbox sign`: the `Payload-Signature` of a body (lowercase hex HMAC-SHA256, D24
/// D24's page "Calculating the Payload-Signature"), or with `--control` a notification's `control` string (its page
/// "Notifications"), for curl sessions. `--api prism` signs for PayoutService instead: the
/// `X-Webhook-Signature` the sandbox puts on a webhook with that body (the PayoutService guide,
/// "Webhooks"). Mannco signs nothing a client could check or make: a usage error says so.
enum SignCommand: Command {
    static let name = "sign"
    static let summary = "Print a body's signature as an API signs it (D24's Payload-Signature unless --api)"
    static let discussion = """
        Prints the signature of BODY (or of standard input when BODY is absent) for one API, D24 \
        unless --api says otherwise. D24: the Payload-Signature of a request body, the lowercase \
        hex HMAC-SHA256 of its exact bytes; with --control EXTERNAL_ID (and no BODY), the \
        uppercase control string of a notification for EXTERNAL_ID instead. PayoutService \
        (--api prism): the X-Webhook-Signature of a webhook body, sha256= and the lowercase hex \
        HMAC-SHA256 of its exact bytes keyed with the merchant's API key, as the sandbox signs \
        the webhooks it sends. Mannco signs no bodies (its calls carry the JWT of POST \
        /user/login; its notifications are emails).
        """

    static let options: [Arguments.Option] = [
        .value("api", "d24|prism", "The API to sign for: d24 (default) or prism, PayoutService (also spelled payoutservice)"),
        .value("secret", "SECRET", "The HMAC key: D24's API signature (default \(defaultKey(.d24))), PayoutService's API key "
               + "(default \(defaultKey(.payoutService)))"),
        .value("control", "EXTERNAL_ID", "D24: print the notification control for this external_id instead"),
    ]

    static let positional: Positional? = Positional(
        synopsis: "[BODY]", help: "The exact body (quote it; '--' before one that starts with '-')", completion: .nothing)

    /// The APIs it signs for.
    enum API {
        case d24, payoutService
    }

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        let api = try api(arguments)
        guard arguments.positional.count <= 1 else { throw UsageError("sign takes one BODY argument; quote it") }
        if let externalID = arguments.value("control") {
            guard api == .d24 else { throw UsageError("--control is D24's notification control; PayoutService signs the webhook's body") }
            guard arguments.positional.isEmpty else { throw UsageError("--control takes no BODY") }
            let key = HMACSHA256.Key(arguments.value("secret") ?? defaultKey(.d24))
            StandardOutput.writeLine(D24Signature.control(externalID: externalID, key: key))
            return 0
        }
        let body = arguments.positional.first.map { Array($0.utf8) } ?? readStandardInput()
        switch api {
        case .d24:
            StandardOutput.writeLine(D24Signature.payload(of: body, key: HMACSHA256.Key(arguments.value("secret") ?? defaultKey(.d24))))
        case .payoutService:
            StandardOutput.writeLine(PrismWebhook.signature(of: body, apiKey: arguments.value("secret") ?? defaultKey(.payoutService)))
        }
        return 0
    }

    /// The key `--secret` stands in for: the default merchant's, which a sandbox starts with.
    private static func defaultKey(_ api: API) -> String {
        switch api {
        case .d24: D24Merchant(D24Merchant.sandboxDefault).secret
        case .payoutService: PrismMerchant(PrismMerchant.sandboxDefault).apiKey
        }
    }

    /// `--api`: d24 unless told; `prism` or `payoutservice` (any case) for PayoutService; Mannco is
    /// refused with why.
    private static func api(_ arguments: Arguments) throws(UsageError) -> API {
        guard let name = arguments.value("api") else { return .d24 }
        switch name.lowercased() {
        case "d24": return .d24
        case "prism", "payoutservice": return .payoutService
        case "mannco":
            throw UsageError("Mannco has nothing to sign: its calls carry the JWT that POST /user/login answers, "
                             + "and its notifications are emails; sign signs for d24 or prism")
        default: throw UsageError("option '--api' expects d24 or prism (PayoutService), got '\(name)'")
        }
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
