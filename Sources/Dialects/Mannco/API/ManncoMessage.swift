/// Every message the Mannco API answers with, as `content` (Mannco.store's API docs,
/// "Authentication" and "Cashout", and the Mannco guide): the one home of their wording, for the endpoints, the documents and the tests.
package enum ManncoMessage {
    // Input, in the order checked.
    package static func missing(_ parameter: String) -> String { "Missing required parameter: \(parameter)" }
    package static let invalidAmount = "Invalid amount"
    package static let invalidMethod = "Invalid payment method"
    package static let invalidEmail = "Invalid email"
    // Business rules of `POST /cashout/process`, in the order checked.
    package static let belowMinimum = "Amount below minimum"
    package static let verificationRequired = "Account verification required"
    package static let methodNotLinked = "Payment method not linked"
    package static let pendingExists = "Pending cashout exists"
    package static let cooldown = "Cooldown period"
    package static let insufficientBalance = "Insufficient balance"
    /// A scenario's decline that gives no message.
    package static let declined = "Cashout declined"
    /// The bank's own limits (none are set on users unless an admin sets them).
    package static let limitExceeded = "Cashout limit exceeded"
    package static let notProcessed = "Cashout could not be processed"
    // Authentication.
    package static let forbidden = "forbidden"
    package static let invalidAPIKey = "Invalid API key"
    // History paging.
    package static let invalidPage = "Invalid page"
    package static let invalidPerpage = "Invalid perpage"
    // Linking.
    package static let invalidProvider = "Invalid provider"
    package static let invalidPayeeType = "Invalid payeeType"
    package static let unlinkFailed = "Failed to unlink cashout method. The method may not be linked or an error occurred."
    // Successes.
    package static let submitted = "Cashout request submitted successfully"
    package static let linkCreated = "Cashout link created successfully"
    package static let tipaltiCreated = "Tipalti payee account created successfully"
    package static let payoneerUnlinked = "Payoneer cashout method unlinked successfully"
}

/// The example cashout of Mannco.store's API docs, "Cashout" (`{"amount":100000,"method":"payoneer","email":"payment@example.com"}`),
/// for the documents, the dashboard's form and the tests: written once.
package enum ManncoExample {
    package static let amount: Int64 = 100_000
    package static let method = ManncoMethod.payoneer
    package static let email = "payment@example.com"
}
