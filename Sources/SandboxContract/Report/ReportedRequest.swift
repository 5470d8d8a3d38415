package import SandboxBank
package import SandboxWire
package import SandboxSupport

/// One logged request to a payout API as the integration report reads it: what came and what
/// was answered, and what its API made of it (`RequestFacts`). A class: checks index and filter
/// a large journal's requests many ways, and share them rather than copy each field.
package final class ReportedRequest: Sendable {
    /// Its id in the request log (`GET /sandbox/requests`).
    package let id: Int
    /// When it arrived, on the virtual clock, and (milliseconds since 1970) on the wall clock: an app's waits are real.
    package let at: VirtualTime
    let receivedAt: Int64
    /// What came and was answered, without the bodies (over a large journal, the bodies as JSON
    /// would be most of a report's memory): what they said is in `facts`.
    package let exchange: LoggedExchange
    package let facts: RequestFacts

    package init(id: Int, at: VirtualTime, receivedAt: Int64, exchange: LoggedExchange, facts: RequestFacts) {
        self.id = id
        self.at = at
        self.receivedAt = receivedAt
        self.exchange = exchange
        self.facts = facts
    }

    /// Refused for its credentials or signature: the diagnosis the API gave.
    package var refusal: Diagnosis? { exchange.diagnosis }

    /// `{"kind": "request", "id": 7, "at": …, "method": "POST", "path": "/v3/cashout", "status": 200}`,
    /// with `note` when given.
    package func evidence(_ note: String? = nil) -> Evidence {
        // A cut answer's status did reach the app (its head was sent whole).
        let status: JSON = exchange.dropped && exchange.cutAfter == nil ? .null : .number(exchange.status)
        var json: [String: JSON] = ["kind": "request", "id": .number(id), "at": .string(at.iso8601), "method": .string(exchange.method),
                                    "path": .string(exchange.path), "status": status]
        if let lost = exchange.lostAnswer { json["answer"] = .string(lost) }
        if let note { json["note"] = .string(note) }
        return Evidence(at: at, sequence: id, json: .object(json))
    }
}

/// A request and its answer, as a dialect reads them to tell the report what they were: bodies
/// as JSON (a gRPC or Connect message as proto3 JSON, a form's fields as strings), nil when they
/// were not JSON or were cut.
package struct LoggedExchange: Sendable {
    package let method: String
    package let path: String
    /// The route that answered (`POST /v3/cashout`), nil for none.
    package let route: String?
    package let headers: HTTPHeaders
    package let body: JSON?
    /// The HTTP status, or for a gRPC call the one Connect gives its status.
    package let status: Int
    let answer: JSON?
    /// The answer never reached the app whole: the connection was closed instead of answering, after the request was
    /// handled, or the answer was cut off (`cutAfter`).
    package let dropped: Bool
    let diagnosis: Diagnosis?
    /// The kind of the scenario's fault that answered instead of the API, nil when the API answered.
    package let fault: FaultKind?
    /// The bytes of the body sent before a `truncate` fault cut the answer off; nil when it was not cut.
    let cutAfter: Int?
    /// The wait the answer asked for before the request is sent again (`HTTPResponse.retryAfter`: `Retry-After`,
    /// `grpc-retry-pushback-ms`); nil when it asked for none.
    let retryAfter: Duration?

    package init(method: String, path: String, route: String?, headers: HTTPHeaders, body: JSON?, status: Int, answer: JSON?, dropped: Bool,
                diagnosis: Diagnosis?, fault: FaultKind? = nil, cutAfter: Int? = nil, retryAfter: Duration? = nil) {
        self.method = method
        self.path = path
        self.route = route
        self.headers = headers
        self.body = body
        self.status = status
        self.answer = answer
        self.dropped = dropped
        self.diagnosis = diagnosis
        self.fault = fault
        self.cutAfter = cutAfter
        self.retryAfter = retryAfter
    }

    /// A 2xx answer.
    package var succeeded: Bool { (200 ..< 300).contains(status) && !dropped }

    /// What a scenario's fault did to the answer, in the words of the report's evidence; nil when the API answered.
    var lostAnswer: String? {
        // A connection dropped with no fault named is a journal's from before faults were named: a drop after commit.
        guard let fault else { return dropped ? FaultKind.droppedAfterCommit : nil }
        return fault.evidenceWords(cutAfter: cutAfter)
    }
}
