import SandboxContract
import SandboxWire
import SandboxSupport

// The request log (RequestLog, the request journal to users): what the payout APIs received and answered, newest first,
// with a diagnosis of each refused authentication and the near miss of each 404 or 405.

extension AdminAPI {
    /// How many entries `GET /sandbox/requests` answers unless `limit` says.
    static let defaultRequestLimit = 100

    /// It reads the whole log: off the event loops, where reports are made.
    func verifyRequests(_ request: HTTPRequest) -> HTTPResponse { .deferred { answer in reports.worker.run { answer(verify(request)) } } }

    func clearRequests(_ request: HTTPRequest) -> HTTPResponse {
        requests.clear()
        return HTTPResponse(status: 204)
    }

    /// `?limit=N&path=PREFIX&status=CODE|4xx&dialect=NAME`: `{"requests": [...], "kept": N, "capacity": N}`.
    func listRequests(_ request: HTTPRequest) -> HTTPResponse {
        var limit = Self.defaultRequestLimit
        if let text = request.query("limit") {
            guard let number = Int(text), number >= AdminLimits.requestLimitMinimum else { return Router.error(400, AdminMessage.requestLimit) }
            limit = number
        }
        var statusFilter: ((Int) -> Bool)?
        if let text = request.query("status") {
            guard let filter = Self.statusFilter(text) else {
                return Router.error(400, "status: expected a status code such as 401, or a class such as 4xx")
            }
            statusFilter = filter
        }
        let dialect = request.query("dialect")
        if let dialect, dialects[dialect] == nil {
            return Router.error(400, "dialect: expected one of \(dialects.keys.sorted().joined(separator: ", "))")
        }
        let path = request.query("path")
        let (entries, kept) = requests.entries(limit: limit) { entry in
            (path.map { entry.request.path.hasPrefix($0) } ?? true) && (statusFilter?(entry.filteredStatus) ?? true)
                && (dialect.map { entry.dialect == $0 } ?? true)
        }
        return .json(["requests": .array(entries.map(requests.json)), "kept": .number(kept), "capacity": .number(requests.capacity)])
    }

    /// `POST /sandbox/requests/verify` (``RequestVerification``).
    private func verify(_ request: HTTPRequest) -> HTTPResponse {
        let answer = RequestVerification.answer(request.body, requestLog: requests)
        return answer.status == 400 ? Router.error(400, answer.answer["message"]?.stringValue ?? "") : .json(answer.answer, status: answer.status)
    }

    /// `401`: that status; `4xx` (or `4XX`): the class.
    private static func statusFilter(_ text: String) -> ((Int) -> Bool)? {
        guard text.utf8.count == 3 else { return nil }
        if let code = Int(text), (100 ... 599).contains(code) { return { $0 == code } }
        guard text.lowercased().hasSuffix("xx"), let digit = Int(text.prefix(1)), (1 ... 5).contains(digit) else { return nil }
        return { $0 / 100 == digit }
    }
}
