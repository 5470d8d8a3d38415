/// One stream of an HTTP/2 connection (RFC 9113 §5.1), from the server's side. A stream enters
/// the session's table when its HEADERS arrive and leaves it when closed: ids at or below the
/// highest seen that are not in the table are closed (how, the session's `closedStreams` says).
final class HTTP2Stream {
    /// How the request is being received.
    enum Receiving {
        /// Headers read, DATA arriving into `body`; handled once the request ends.
        case body
        /// An ``HTTPStreamHandler`` gets DATA as it arrives.
        case streamed(any HTTPStreamHandler)
        /// The client's side is closed (END_STREAM), or the rest is discarded.
        case done
    }

    /// Where the answer is.
    enum Answering {
        /// Not answered yet (the request is incomplete, or its handler works off the loop).
        case waiting
        /// Headers sent; DATA (and trailers) still queued behind flow control.
        case sending
        /// The answer is wholly queued or sent: the stream closes once the client's side is done.
        case done
    }

    let id: UInt32
    var receiving = Receiving.body
    var answering = Answering.waiting
    /// The request as far as it has arrived.
    var request: HTTPRequest
    /// The body's limit, by route (``HTTPLimits/body(method:target:)``).
    let maxBody: Int
    /// A `content-length` the request declared, checked against its DATA.
    var declaredLength: Int?
    /// The file the body goes to instead of `request.body`, when its route spools bodies, and
    /// how many bytes are in it.
    var spool: SpoolFile?
    var spooled = 0
    /// What the client may still send before we open the window again, and what we may send.
    var receiveWindow: Int
    var sendWindow: Int
    /// Response DATA and trailers waiting for window, in order.
    var pendingData: [UInt8] = []
    var pendingOffset = 0
    var pendingTrailers: HTTPHeaders?
    var endAfterPending = false
    /// The queued answer is a cut one (`HTTPResponse.cutOff(after:)`): once it is sent, RST_STREAM instead of its end.
    var resetAfterPending = false
    /// In the session's list of streams waiting for window.
    var isBlocked = false
    /// A streamed request's handler, kept until the stream closes (its request may end long
    /// before its answer, as a server-streaming call's does).
    var handler: (any HTTPStreamHandler)?
    /// The handler's answer is being produced off the loop (``HTTPResponse/later(on:_:)``).
    var awaited: AwaitedRequest?
    /// When the request began, for the body timeout.
    let started: Int64

    init(id: UInt32, request: HTTPRequest, maxBody: Int, receiveWindow: Int, sendWindow: Int, now: Int64) {
        self.id = id
        self.request = request
        self.maxBody = maxBody
        self.receiveWindow = receiveWindow
        self.sendWindow = sendWindow
        self.started = now
    }

    var hasPendingOutput: Bool { pendingOffset < pendingData.count || pendingTrailers != nil || endAfterPending }

    var isReceiving: Bool {
        if case .done = receiving { return false }
        return true
    }
}
