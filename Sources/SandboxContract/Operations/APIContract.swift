package import SandboxBank
package import SandboxWire
package import SandboxSupport

/// A payout API's operations, each declared once, and what each reads of a request: whose it
/// is, the payout it names, what a create asks for. A request's facts are read once, by the
/// operation that answered it, and shared by a scenario's faults (before it is handled), the
/// integration report, the timeline and `explore`.
package protocol APIContract: Sendable {
    /// Its operations: every HTTP route it serves and every gRPC method it handles, in the order
    /// its documents list them.
    var operations: [APIOperation] { get }

    /// What `call` asked, in the API's terms, from the request alone; nil when its operation tells
    /// nothing of a payout or an account.
    func facts(of call: OperationCall, bank: Bank) -> RequestFacts?

    /// `facts` (what the request to `operation` asked) with what its answer, `answer`, said: the
    /// payout a create made, a listing's payouts, the words a timeline shows (``RequestFacts/answerWords``).
    func facts(_ facts: RequestFacts, answered answer: JSON, operation: APIOperation) -> RequestFacts
}

extension APIContract {
    var operations: [APIOperation] { [] }
    package func facts(of call: OperationCall, bank: Bank) -> RequestFacts? { nil }
    package func facts(_ facts: RequestFacts, answered answer: JSON, operation: APIOperation) -> RequestFacts { facts }

    /// Its operation of that route (`"POST /v3/cashout"`, `"POST /types.PayoutService/Get"`); for
    /// the `HEAD` twin the router gives each `GET` route, the `GET`'s operation.
    package func operation(route: String) -> APIOperation? {
        let asked = route.hasPrefix("HEAD ") ? "GET " + route.dropFirst("HEAD ".count) : Substring(route)
        return operations.first { $0.route == asked }
    }
}

/// A request to one of an API's operations as its facts are read, once, by its first reader
/// (a fault's look before it is handled, else the log's): its body is the JSON the request carried
/// (a gRPC message as its proto3 JSON). Its answer's part is added to them once it is answered
/// (``APIContract/facts(_:answered:operation:)``).
package struct OperationCall: Sendable {
    package let operation: APIOperation
    package let headers: HTTPHeaders
    package let body: JSON?

    package init(_ operation: APIOperation, headers: HTTPHeaders, body: JSON?) {
        self.operation = operation
        self.headers = headers
        self.body = body
    }

    /// The text of a body member: a string, or a number as sent.
    package func text(_ key: String) -> String? { body?[key].flatMap { $0.stringValue ?? $0.numberText } }
}
