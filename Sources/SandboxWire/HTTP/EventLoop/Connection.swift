/// The state of one accepted connection. Owned by a single event loop and touched only on its
/// thread.
final class Connection {
    /// What the connection is doing, which decides its deadline and which events it waits for.
    enum Phase {
        /// Reading requests and writing responses.
        case open
        /// Our side is shut for writing after a response that closes the connection; reading and
        /// discarding what the peer still sends, so closing does not reset the connection before
        /// the peer has read the response (RFC 9112 §9.6).
        case lingering
    }

    let fd: Int32
    /// Tells this connection apart from a later one that reuses the descriptor.
    let serial: Int
    /// The request whose response is being produced off the loop, if any: nothing more is read
    /// from the parser until it is answered.
    var awaiting: AwaitedRequest?
    /// The peer, as accepted.
    var remoteAddress: SocketAddress?
    /// Changed in place for every request, by this loop's thread alone: not checked for exclusive
    /// access at run time (as `output`; each check cost about 100 instructions).
    @exclusivity(unchecked) var parser: HTTPParser
    /// The HTTP/2 session, once the connection opened with the HTTP/2 preface.
    var session: HTTP2Session?
    /// Bytes of the HTTP/2 preface the connection's first bytes matched so far; nil once decided.
    var prefaceMatched: Int? = 0
    var isClosed = false
    var phase = Phase.open
    /// Response bytes not yet sent, from `outputOffset` on.
    @exclusivity(unchecked) var output: [UInt8] = []
    var outputOffset = 0
    /// Whether epoll is watching for writability (and so not for reading).
    var waitingToWrite = false
    /// Close once the output is sent.
    var closeAfterWrite = false
    /// The peer shut down its sending side.
    var peerClosed = false
    /// Parsed requests wait for the loop's next turn (`EventLoop.backlogged`).
    var isBacklogged = false
    /// When the request being read began, for the header and body timeouts.
    var requestStartedAt: Int64 = 0
    /// When something last happened: bytes read or written.
    var lastActivity: Int64
    /// The moment after which the sweep closes the connection.
    var deadline: Int64 = .max
    /// Bytes left to discard while lingering before giving up.
    var lingerBudget = 1 << 20

    init(fd: Int32, serial: Int, limits: HTTPLimits, now: Int64) {
        self.fd = fd
        self.serial = serial
        self.parser = HTTPParser(mode: .request, limits: limits)
        self.lastActivity = now
    }

    var hasPendingOutput: Bool { outputOffset < output.count }
}

/// What answering a request later needs to know about it.
struct AwaitedRequest {
    let method: String
    let path: Substring
    let keepAlive: Bool
    let http10: Bool
    let started: Int64
    /// The router's number for the request's route, for the metrics.
    let route: Int

    /// Whether the request was a HEAD (its length checked first: two small strings that differ
    /// are compared the slow way).
    var isHead: Bool { method.utf8.count == 4 && method == "HEAD" }
}
