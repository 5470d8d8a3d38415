import CashoutSandbox
import SandboxContract
import SandboxWire
import SandboxSupport

/// `cashout-sandbox openapi`: prints the OpenAPI 3.1 document, as `GET /openapi.json` serves it.
enum OpenAPICommand: Command {
    static let name = "openapi"
    static let summary = "Print the OpenAPI 3.1 document"
    static let discussion = """
        Prints the OpenAPI 3.1 document of every payout API and admin endpoint (the same as \
        GET /openapi.json on a running sandbox).
        """

    static let options: [Arguments.Option] = [
        .value("base-url", "URL", "The server the document names (default http://127.0.0.1:8080)"),
    ]

    static func run(_ arguments: Arguments) throws(UsageError) -> Int32 {
        guard arguments.positional.isEmpty else { throw UsageError("openapi takes no arguments") }
        let document = OpenAPIDocument.document(serverURL: try arguments.baseURL(), apis: Sandbox.standardDialects.documents,
                                                served: Sandbox.servedEndpoints)
        StandardOutput.writeLine(document.serializedString())
        return 0
    }
}
