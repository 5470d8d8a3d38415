import CashoutSandbox
import SandboxContract
import SandboxWire
import SandboxSupport

/// `cashout-sandbox postman`: prints the Postman collection (or its environment), as
/// `GET /postman.json` serves it.
enum PostmanCommand: Command {
    static let name = "postman"
    static let summary = "Print the Postman collection (or, with --environment, its environment)"
    static let discussion = """
        Prints the Postman collection (v2.1) of every payout API served and the admin calls, or with \
        --environment its environment (the same as GET /postman.json and \
        GET /postman/environment.json on a running sandbox).
        """

    static let options: [Arguments.Option] = [
        .value("base-url", "URL", "The sandbox the requests go to (default http://127.0.0.1:8080)"),
        .flag("environment", "Print the environment instead of the collection"),
    ]

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        guard arguments.positional.isEmpty else { throw UsageError("postman takes no arguments") }
        let baseURL = try arguments.baseURL()
        let apis = Sandbox.standardDialects.documents
        let document = arguments.has("environment")
            ? PostmanCollection.environment(baseURL: baseURL, apis: apis) : PostmanCollection.collection(baseURL: baseURL, apis: apis)
        StandardOutput.writeLine(document.serializedString())
        return 0
    }
}
