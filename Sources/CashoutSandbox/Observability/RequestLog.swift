package import SandboxBank
package import SandboxContract
package import SandboxWire
import SandboxSupport
import Synchronization

/// The request log: the last requests the payout APIs received and what each was answered
/// (`GET /sandbox/requests`), as WireMock's and MockServer's request journals keep them. Users
/// meet it under WireMock's name (`serve --request-journal`, "the request journal" in answers);
/// in the code "journal" is only the state on disk (`StateJournal`), so this is a log.
///
/// A ring of `capacity` entries: the newest pushes the oldest out. Recording is on the request
/// path, so it keeps references to the request and the response and renders nothing (the admin
/// API renders on read), under one short lock; a body over `bodyLimit` bytes is kept cut there.
/// Ids count from 1 for the sandbox's life: clearing (`DELETE`, a reset) does not reuse them.
///
/// ```swift
/// let log = RequestLog(capacity: 1000, bodyLimit: 16 * 1024, grpc: grpc)
/// log.record(request, response, route: "POST /v3/cashout", dialect: "d24", at: clock.now, receivedAt: wall)
/// log.entries(limit: 100) { $0.response.status == 401 }   // newest first
/// ```
package final class RequestLog: Sendable {
    /// One request and its answer, as they were. A class: a reader takes the whole log under
    /// the lock that every request's recording takes, and copies a reference per entry, not
    /// every field's.
    package final class Entry: Sendable {
        package let id: Int
        /// When it arrived, on the virtual clock and (milliseconds since 1970) on the wall clock.
        package let at: VirtualTime
        let receivedAt: Int64
        /// Its turn among the app's requests and the deliveries to it (``AppActivity``): what
        /// began before it has a smaller one; 0 when it was recorded without one.
        let turn: Int
        /// The last turn given when it was answered: a request whose turn is not greater began
        /// before this one was answered (the two were in flight at once, or that one came first).
        let answeredTurn: Int
        /// The request and the answer, bodies cut at the log's `bodyLimit` (then `...Truncated`).
        package let request: HTTPRequest
        package let response: HTTPResponse
        let requestTruncated: Bool
        let responseTruncated: Bool
        /// The route that answered (`"POST /v3/cashout"`), nil for none; the API it belongs to.
        package let route: String?
        let dialect: String?
        /// What its API reads of the request and its answer, made once for every reader (``RequestLog/facts(_:api:bank:)``):
        /// the pipeline's (a fault's look made them), else made by the first reader; nil for a request of no payout API.
        package var facts: KeptFacts? {
            guard dialect != nil else { return nil }
            return keptFacts.load() ?? keptFacts.storeIfNil(KeptFacts())
        }
        private let keptFacts = SetOnce<KeptFacts>()

        init(id: Int, at: VirtualTime, receivedAt: Int64, turn: Int = 0, answeredTurn: Int = 0, request: HTTPRequest,
                     response: HTTPResponse, requestTruncated: Bool, responseTruncated: Bool, route: String?, dialect: String?,
                     facts: KeptFacts? = nil) {
            self.id = id
            self.at = at
            self.receivedAt = receivedAt
            self.turn = turn
            self.answeredTurn = answeredTurn
            self.request = request
            self.response = response
            self.requestTruncated = requestTruncated
            self.responseTruncated = responseTruncated
            self.route = route
            self.dialect = dialect
            if let facts { _ = keptFacts.storeIfNil(facts) }
        }

        /// The status `?status=` filters by: the answer's, or for a gRPC call (HTTP 200 whatever
        /// its outcome) the one Connect gives its `grpc-status`, so that `4xx` finds refused calls too.
        var filteredStatus: Int {
            response.grpcStatus?.connectHTTPStatus ?? response.status
        }
    }

    private struct Kept {
        var entries: Ring<Entry>
        var lastID = 0
        /// Entries pushed out since the log was last cleared: what a verification cannot see.
        var lost = 0
        /// Times it was cleared: with `lastID`, what the entries kept are a function of.
        var clears = 0
    }

    /// How many entries are kept (0: none, nothing is recorded).
    let capacity: Int
    /// How many bytes of each body are kept.
    let bodyLimit: Int
    /// Decodes gRPC and Connect bodies for display.
    package let grpc: GRPCServer
    private let kept: Mutex<Kept>

    init(capacity: Int, bodyLimit: Int, grpc: GRPCServer) {
        self.capacity = max(0, capacity)
        kept = Mutex(Kept(entries: Ring(capacity: capacity)))
        self.bodyLimit = max(0, bodyLimit)
        self.grpc = grpc
    }

    /// Keeps a request and its answer, pushing the oldest out when full. `truncated`: whether each body was cut already
    /// (a finished run's record, read back); nil: cut here at `bodyLimit`.
    package func record(_ request: HTTPRequest, _ response: HTTPResponse, route: String?, dialect: String?, at: VirtualTime, receivedAt: Int64,
                turn: Int = 0, answeredTurn: Int = 0, truncated: (request: Bool, response: Bool)? = nil, facts: KeptFacts? = nil) {
        guard capacity > 0 else { return }
        var request = request, response = response
        let requestTruncated = request.body.count > bodyLimit || truncated?.request == true
        let responseTruncated = response.body.count > bodyLimit || truncated?.response == true
        // Neither the whole body nor what it read as is kept, nor the facts made of it: they are made again of what is kept.
        var facts = facts
        if requestTruncated {
            request.body = Array(request.body.prefix(bodyLimit))
            request.decoded = DecodedBody()
            facts = nil
        }
        if responseTruncated { response.body = Array(response.body.prefix(bodyLimit)) }
        // Made under the lock, where it takes its id, and moved into the ring (not copied); the
        // oldest, which it pushes out, is freed once the lock is released.
        let pushedOut = kept.withLock { kept in
            kept.lastID += 1
            let pushedOut = kept.entries.append(Entry(id: kept.lastID, at: at, receivedAt: receivedAt, turn: turn, answeredTurn: answeredTurn,
                                                      request: request, response: response, requestTruncated: requestTruncated,
                                                      responseTruncated: responseTruncated, route: route, dialect: dialect,
                                                      facts: facts))
            if pushedOut != nil { kept.lost += 1 }
            return pushedOut
        }
        _ = pushedOut  // freed here, outside the lock
    }

    /// Up to `limit` entries that pass `filter`, newest first, and how many are kept in all.
    func entries(limit: Int, where filter: (Entry) -> Bool = { _ in true }) -> (entries: [Entry], kept: Int) {
        kept.withLock { kept in
            var found: [Entry] = []
            kept.entries.newestFirst { entry in
                if filter(entry) { found.append(entry) }
                return found.count < limit
            }
            return (found, kept.entries.count)
        }
    }

    /// Every entry kept, oldest first, and how many were pushed out since the log was last
    /// cleared (a verification that needs those cannot be answered).
    package func all() -> (entries: [Entry], lost: Int) {
        kept.withLock { kept in (kept.entries.inOrder, kept.lost) }
    }

    /// The entries kept whose id is after `id`, oldest first: what came since a reader last looked.
    func entries(after id: Int) -> [Entry] {
        kept.withLock { kept in
            var found: [Entry] = []
            kept.entries.newestFirst { entry in
                guard entry.id > id else { return false }
                found.append(entry)
                return true
            }
            return found.reversed()
        }
    }

    /// What the entries kept are a function of: the last id given and the times the log was
    /// cleared (equal versions, equal entries).
    package var version: (lastID: Int, clears: Int) {
        kept.withLock { ($0.lastID, $0.clears) }
    }

    /// Forgets every entry; ids go on from where they were.
    func clear() {
        let dropped = kept.withLock { kept in
            kept.lost = 0
            kept.clears += 1
            return kept.entries.removeAll()
        }
        _ = dropped  // freed here, outside the lock
    }
}
