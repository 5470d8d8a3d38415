/// Every message the Mannco API answers with, as `content` (Mannco.store's API docs,
/// "Authentication" and "Cashout", and the Mannco guide): the one home of their wording, for the endpoints, the documents and the tests.
public enum ManncoMessage {
    // Input, in the order checked.
    public static func missing(_ parameter: String) -> String { "Missing required parameter: \(parameter)" }
    public static let invalidAmount = "Invalid amount"
    public static let invalidMethod = "Invalid payment method"
    public static let invalidEmail = "Invalid email"
    // Business rules of `POST /cashout/process`, in the order checked.
    public static let belowMinimum = "Amount below minimum"
    public static let verificationRequired = "Account verification required"
    public static let methodNotLinked = "Payment method not linked"
    public static let pendingExists = "Pending cashout exists"
    public static let cooldown = "Cooldown period"
    public static let insufficientBalance = "Insufficient balance"
    /// A scenario's decline that gives no message.
    public static let declined = "Cashout declined"
    /// The bank's own limits (none are set on users unless an admin sets them).
    public static let limitExceeded = "Cashout limit exceeded"
    public static let notProcessed = "Cashout could not be processed"
    // Authentication.
    public static let forbidden = "forbidden"
    public static let invalidAPIKey = "Invalid API key"
    // History paging.
    public static let invalidPage = "Invalid page"
    public static let invalidPerpage = "Invalid perpage"
    // Linking.
    public static let invalidProvider = "Invalid provider"
    public static let invalidPayeeType = "Invalid payeeType"
    public static let unlinkFailed = "Failed to unlink cashout method. The method may not be linked or an error occurred."
    // Successes.
    public static let submitted = "Cashout request submitted successfully"
    public static let linkCreated = "Cashout link created successfully"
    public static let tipaltiCreated = "Tipalti payee account created successfully"
    public static let payoneerUnlinked = "Payoneer cashout method unlinked successfully"
}

/// The example cashout of Mannco.store's API docs, "Cashout" (`{"amount":100000,"method":"payoneer","email":"payment@example.com"}`),
/// for the documents, the dashboard's form and the tests: written once.
public enum ManncoExample {
    public static let amount: Int64 = 100_000
    public static let method = ManncoMethod.payoneer
    public static let email = "payment@example.com"
}
