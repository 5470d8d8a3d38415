import SandboxBank
import SandboxGRPC
import SandboxHTTP
import Synchronization

/// The last requests the payout APIs received and what each was answered (`GET /sandbox/requests`),
/// as WireMock's and MockServer's request journals keep them.
///
/// A ring of `capacity` entries: the newest pushes the oldest out. Recording is on the request
/// path, so it keeps references to the request and the response and renders nothing (the admin
/// API renders on read), under one short lock; a body over `bodyLimit` bytes is kept cut there.
/// Ids count from 1 for the sandbox's life: clearing (`DELETE`, a reset) does not reuse them.
///
/// ```swift
/// let journal = RequestJournal(capacity: 1000, bodyLimit: 16 * 1024, grpc: grpc)
/// journal.record(request, response, route: "POST /v3/cashout", dialect: "d24", at: clock.now, receivedAt: wall)
/// journal.entries(limit: 100) { $0.response.status == 401 }   // newest first
/// ```
final class RequestJournal: Sendable {
    /// One request and its answer, as they were.
    struct Entry: Sendable {
        fileprivate(set) var id: Int
        /// When it arrived, on the virtual clock and (milliseconds since 1970) on the wall clock.
        let at: VirtualTime
        let receivedAt: Int64
        /// The request and the answer, bodies cut at the journal's `bodyLimit` (then `...Truncated`).
        let request: HTTPRequest
        let response: HTTPResponse
        let requestTruncated: Bool
        let responseTruncated: Bool
        /// The route that answered (`"POST /v3/cashout"`), nil for none; the API it belongs to.
        let route: String?
        let dialect: String?

        /// The status `?status=` filters by: the answer's, or for a gRPC call (HTTP 200 whatever
        /// its outcome) the one Connect gives its `grpc-status`, so that `4xx` finds refused calls too.
        var filteredStatus: Int {
            response.grpcStatus?.connectHTTPStatus ?? response.status
        }
    }

    private struct Ring {
        var entries: [Entry] = []
        /// Where the next entry goes once the ring is full.
        var next = 0
        var lastID = 0
    }

    /// How many entries are kept (0: none, nothing is recorded).
    let capacity: Int
    /// How many bytes of each body are kept.
    let bodyLimit: Int
    /// Decodes gRPC and Connect bodies for display.
    let grpc: GRPCServer
    private let ring = Mutex(Ring())

    init(capacity: Int, bodyLimit: Int, grpc: GRPCServer) {
        self.capacity = max(0, capacity)
        self.bodyLimit = max(0, bodyLimit)
        self.grpc = grpc
    }

    /// Keeps a request and its answer, pushing the oldest out when full.
    func record(_ request: HTTPRequest, _ response: HTTPResponse, route: String?, dialect: String?, at: VirtualTime, receivedAt: Int64) {
        guard capacity > 0 else { return }
        var request = request, response = response
        let requestTruncated = request.body.count > bodyLimit, responseTruncated = response.body.count > bodyLimit
        if requestTruncated { request.body = Array(request.body.prefix(bodyLimit)) }
        if responseTruncated { response.body = Array(response.body.prefix(bodyLimit)) }
        // Made outside the lock; inside, it takes its id and trades places with the oldest, which
        // is freed once the lock is released.
        var entry = Entry(id: 0, at: at, receivedAt: receivedAt, request: request, response: response,
                          requestTruncated: requestTruncated, responseTruncated: responseTruncated, route: route, dialect: dialect)
        ring.withLock { ring in
            ring.lastID += 1
            entry.id = ring.lastID
            guard ring.entries.count == capacity else { return ring.entries.append(entry) }
            swap(&ring.entries[ring.next], &entry)
            ring.next = (ring.next + 1) % capacity
        }
    }

    /// Up to `limit` entries that pass `filter`, newest first, and how many are kept in all.
    func entries(limit: Int, where filter: (Entry) -> Bool = { _ in true }) -> (entries: [Entry], kept: Int) {
        ring.withLock { ring in
            var found: [Entry] = []
            let count = ring.entries.count
            var index = count < capacity ? count : ring.next  // just past the newest
            for _ in 0 ..< count where found.count < limit {
                index = (index - 1 + count) % count
                if filter(ring.entries[index]) { found.append(ring.entries[index]) }
            }
            return (found, count)
        }
    }

    /// Forgets every entry; ids go on from where they were.
    func clear() {
        let dropped = ring.withLock { ring in
            let entries = ring.entries
            ring.entries = []
            ring.next = 0
            return entries
        }
        _ = dropped  // freed here, outside the lock
    }
}
