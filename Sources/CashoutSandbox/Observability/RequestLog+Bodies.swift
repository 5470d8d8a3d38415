package import SandboxBank
package import SandboxContract
import SandboxWire
import SandboxSupport

// A logged request as a verification's pattern and the integration report read it: its body
// (and its answer's) as JSON, whichever way it came (RequestPattern, LoggedExchange).

extension RequestLog {
    package func subject(_ entry: Entry) -> RequestPattern.Subject {
        let request = entry.request
        return RequestPattern.Subject(method: request.method, path: String(request.path), dialect: entry.dialect, headers: request.headers,
                                      body: entry.requestTruncated ? nil : bodyJSON(entry), bodyCut: entry.requestTruncated)
    }

    /// What an entry's request was and its answer said, as its API reads them: what it asked as a
    /// fault's look made it, or made now, and its answer's part added once, by the first reader
    /// (the clock's waits, the report, the timeline, a verification), then kept (`KeptFacts`).
    package func facts(_ entry: Entry, api: any APIContract, bank: Bank) -> RequestFacts? {
        guard let operation = entry.route.flatMap(api.operation(route:)), let kept = entry.facts else { return nil }
        return kept.answered(asked: {
            api.facts(of: OperationCall(operation, headers: entry.request.headers, body: entry.requestTruncated ? nil : bodyJSON(entry)),
                      bank: bank)
        }, by: { facts in answerJSON(entry).map { api.facts(facts, answered: $0, operation: operation) } ?? facts })
    }

    /// The entry as a dialect reads it for the integration report.
    func exchange(_ entry: Entry, bodies: Bool = true) -> LoggedExchange {
        LoggedExchange(method: entry.request.method, path: String(entry.request.path), route: entry.route, headers: entry.request.headers,
                       body: !bodies || entry.requestTruncated ? nil : bodyJSON(entry), status: entry.filteredStatus,
                       answer: bodies ? answerJSON(entry) : nil, dropped: entry.response.isDroppedConnection || entry.response.cutAfter != nil,
                       diagnosis: entry.response.diagnosis, fault: entry.response.fault?.kind, cutAfter: entry.response.cutAfter,
                       // Only a refusal asks for a wait (a fault's, or an HTTP 4xx or 5xx): the others' headers are not read.
                       retryAfter: entry.response.fault != nil || entry.response.status >= 400 ? entry.response.retryAfter : nil)
    }

    /// A gRPC or Connect message as proto3 JSON, a JSON body, or a form's fields as strings.
    private func bodyJSON(_ entry: Entry) -> JSON? {
        bodyJSON(of: entry.request, routed: entry.route != nil)
    }

    /// A request's body as a pattern reads it (`routed`: a route took it, so a gRPC path names a
    /// method), for a logged request and for one a fault looks at before it is handled alike.
    func bodyJSON(of request: HTTPRequest, routed: Bool) -> JSON? {
        let contentType = request.headers["content-type"]?.lowercased() ?? ""
        if routed, let message = grpc.requestMessageJSON(request) { return message }
        // JSON first, whatever the type says: D24 reads a JSON body sent as a form (curl -d's default).
        let json = request.jsonBody
        if case .object? = json { return json }
        if contentType.contains("x-www-form-urlencoded") {
            return FormURLEncoding.decode(request.body).map { fields in
                .object(Dictionary(fields.map { ($0.name, JSON.string($0.value)) }) { first, _ in first })
            }
        }
        return json
    }

    /// The answer's body as JSON: a gRPC or Connect message as proto3 JSON, or a JSON body.
    private func answerJSON(_ entry: Entry, _ response: HTTPResponse? = nil) -> JSON? {
        guard !entry.responseTruncated else { return nil }
        let response = response ?? entry.response
        if entry.route != nil, let message = grpc.messageJSON(path: entry.request.path, contentType: response.headers["content-type"],
                                                             body: response.body, isRequest: false) {
            return message
        }
        return try? JSON.parse(response.body)
    }

    /// The facts of `entry` as its API would read them had the answer a fault lost been sent
    /// (``SandboxWire/HTTPResponse/lostAnswer``): what it committed, such as the id of the payout a
    /// create made; nil when no answer was lost. Only a wait reads them: the report judges what the
    /// app was told.
    func committedFacts(_ entry: Entry, api: any APIContract, bank: Bank) -> RequestFacts? {
        guard let lost = entry.response.lostAnswer, let facts = facts(entry, api: api, bank: bank),
              let operation = entry.route.flatMap(api.operation(route:)), let json = answerJSON(entry, lost) else { return nil }
        return api.facts(facts, answered: json, operation: operation)
    }
}
