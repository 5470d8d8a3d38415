/// Every message the Mannco API answers with, as `content` (Mannco.store's API docs,
/// "Authentication" and "Cashout", and the Mannco guide): the one home of their wording, for the endpoints, the documents and the tests.
enum ManncoMessage {
    // Input, in the order checked.
    package static func missing(_ parameter: String) -> String { "Missing required parameter: \(parameter)" }
    static let invalidAmount = "Invalid amount"
    static let invalidMethod = "Invalid payment method"
    static let invalidEmail = "Invalid email"
    // Business rules of `POST /cashout/process`, in the order checked.
    static let belowMinimum = "Amount below minimum"
    static let verificationRequired = "Account verification required"
    static let methodNotLinked = "Payment method not linked"
    static let pendingExists = "Pending cashout exists"
    static let cooldown = "Cooldown period"
    static let insufficientBalance = "Insufficient balance"
    /// A scenario's decline that gives no message.
    package static let declined = "Cashout declined"
    /// The bank's own limits (none are set on users unless an admin sets them).
    static let limitExceeded = "Cashout limit exceeded"
    static let notProcessed = "Cashout could not be processed"
    // Authentication.
    static let forbidden = "forbidden"
    static let invalidAPIKey = "Invalid API key"
    // History paging.
    static let invalidPage = "Invalid page"
    static let invalidPerpage = "Invalid perpage"
    // Linking.
    static let invalidProvider = "Invalid provider"
    static let invalidPayeeType = "Invalid payeeType"
    static let unlinkFailed = "Failed to unlink cashout method. The method may not be linked or an error occurred."
    // Successes.
    static let submitted = "Cashout request submitted successfully"
    static let linkCreated = "Cashout link created successfully"
    static let tipaltiCreated = "Tipalti payee account created successfully"
    static let payoneerUnlinked = "Payoneer cashout method unlinked successfully"
}

/// The example cashout of Mannco.store's API docs, "Cashout" (`{"amount":100000,"method":"payoneer","email":"payment@example.com"}`),
/// for the documents, the dashboard's form and the tests: written once.
enum ManncoExample {
    package static let amount: Int64 = 100_000
    package static let method = ManncoMethod.payoneer
    static let email = "payment@example.com"
}
