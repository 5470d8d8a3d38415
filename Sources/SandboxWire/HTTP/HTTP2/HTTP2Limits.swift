/// HTTP/2's settings and bounds, in one place as ``HTTPLimits`` has HTTP/1's. The body limits and
/// the header-section limit (`maxHeaderBytes`, SETTINGS_MAX_HEADER_LIST_SIZE) are ``HTTPLimits``'
/// own; over HTTP/2 the header list is measured as RFC 9113 §6.5.2 does (each field's name and
/// value plus 32), and the field count is bounded by that size alone.
struct HTTP2Limits: Sendable, Equatable {
    /// Streams a client may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS); more are refused
    /// with REFUSED_STREAM.
    var maxConcurrentStreams = 1024
    /// The largest frame payload accepted (SETTINGS_MAX_FRAME_SIZE, 16 KiB to 16 MiB - 1).
    var maxFrameSize = 16 * 1024
    /// The receive window of each stream (SETTINGS_INITIAL_WINDOW_SIZE) and of the connection.
    var initialWindowSize = 1 << 20
    /// The HPACK dynamic table the client may use for what it sends (SETTINGS_HEADER_TABLE_SIZE).
    var headerTableSize = 4096
    /// The compressed bytes of one header block (HEADERS and its CONTINUATIONs) beyond which the
    /// connection is closed (ENHANCE_YOUR_CALM): a larger list that still fits is answered 431.
    var maxHeaderBlockBytes = 256 * 1024
    /// Request bodies of unfinished streams a connection may hold: the connection's window is not
    /// reopened beyond it until some finish, unless only one stream holds a body (a large upload
    /// up to its route's limit, such as a snapshot).
    var maxBufferedBodyBytes = 16 << 20
    /// Answer bytes a connection may have queued behind flow control (a client that opens no
    /// window, or reads slowly): past it, further requests are refused (REFUSED_STREAM, which the
    /// client may retry) until some are sent. One answer may go beyond it on its own.
    var maxPendingResponseBytes = 4 << 20
    /// Frames that cost work but carry no request, which a connection may send in a burst, and
    /// per second after it; beyond that it is closed with ENHANCE_YOUR_CALM (floods, such as rapid
    /// reset). They are: PING, SETTINGS, RST_STREAM, PRIORITY, GOAWAY, CONTINUATION, empty DATA,
    /// unknown frame types, a stream the client makes the server reset (DATA on a half-closed
    /// stream or on one it reset, refused or malformed HEADERS: "MadeYouReset"), and a
    /// WINDOW_UPDATE that sends nothing, unless it gives back window our DATA used while no answer
    /// waits for window (as clients do after each answer: grpcio twice per call).
    var controlFrameBurst = 2000
    var controlFramesPerSecond = 1000

    /// The defaults.
    init() {}
}
