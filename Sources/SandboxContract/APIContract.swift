import SandboxBank
import SandboxHTTP
import SandboxJSON

/// A payout API's operations, each declared once, and what each reads of a request: whose it
/// is, the payout it names, what a create asks for. A request's facts are read once, by the
/// operation that answered it, and shared by a scenario's faults (before it is handled), the
/// integration report, the timeline and `explore`.
package protocol APIContract: Sendable {
    /// Its operations: every HTTP route it serves and every gRPC method it handles, in the order
    /// its documents list them.
    var operations: [APIOperation] { get }

    /// What `call` was, in the API's terms; nil when its operation tells nothing of a payout or an
    /// account.
    func facts(of call: OperationCall, bank: Bank) -> RequestFacts?
}

extension APIContract {
    package var operations: [APIOperation] { [] }
    package func facts(of call: OperationCall, bank: Bank) -> RequestFacts? { nil }

    /// Its operation of that route (`"POST /v3/cashout"`, `"POST /types.PayoutService/Get"`); for
    /// the `HEAD` twin the router gives each `GET` route, the `GET`'s operation.
    package func operation(route: String) -> APIOperation? {
        let asked = route.hasPrefix("HEAD ") ? "GET " + route.dropFirst("HEAD ".count) : Substring(route)
        return operations.first { $0.route == asked }
    }
}

/// A request to one of an API's operations as its facts are read: before it is handled (a
/// fault's look, with no answer yet) or once answered (the report's). Its body is the JSON the
/// request carried (a gRPC message as its proto3 JSON).
package struct OperationCall: Sendable {
    package let operation: APIOperation
    package let headers: HTTPHeaders
    package let body: JSON?
    /// The answer's JSON body (a gRPC reply's proto3 JSON); nil before it was answered.
    package let answer: JSON?

    package init(_ operation: APIOperation, headers: HTTPHeaders, body: JSON?, answer: JSON? = nil) {
        self.operation = operation
        self.headers = headers
        self.body = body
        self.answer = answer
    }

    /// The text of a body member: a string, or a number as sent.
    package func text(_ key: String) -> String? { body?[key].flatMap { $0.stringValue ?? $0.numberText } }
}
