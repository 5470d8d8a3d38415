import SandboxHTTP
import SandboxJSON
import SandboxScenario

// A journaled request as a verification's pattern reads it: its body as JSON, whichever way it
// came (RequestPattern).

extension RequestJournal {
    func subject(_ entry: Entry) -> RequestPattern.Subject {
        let request = entry.request
        return RequestPattern.Subject(method: request.method, path: String(request.path), dialect: entry.dialect, headers: request.headers,
                                      body: entry.requestTruncated ? nil : bodyJSON(entry), bodyCut: entry.requestTruncated)
    }

    /// A gRPC or Connect message as proto3 JSON, a JSON body, or a form's fields as strings.
    private func bodyJSON(_ entry: Entry) -> JSON? {
        let request = entry.request
        let contentType = request.headers["content-type"]?.lowercased() ?? ""
        if entry.route != nil, let message = grpc.messageJSON(path: request.path, contentType: contentType, body: request.body, isRequest: true) {
            return message
        }
        // JSON first, whatever the type says: D24 reads a JSON body sent as a form (curl -d's default).
        if let json = try? JSON.parse(request.body), case .object = json { return json }
        if contentType.contains("x-www-form-urlencoded") {
            return FormURLEncoding.decode(request.body).map { fields in
                .object(Dictionary(fields.map { ($0.name, JSON.string($0.value)) }) { first, _ in first })
            }
        }
        return try? JSON.parse(request.body)
    }
}
