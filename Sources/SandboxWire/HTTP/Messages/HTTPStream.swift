// Streaming exchanges, HTTP/2 only: a request whose body is read as it arrives and whose answer is
// written in parts (gRPC's streaming calls, such as server reflection). Everything here runs on the
// event loop's thread that owns the connection; a handler must not block.

/// One part of a streamed answer, in the order they must come: one `head`, any number of `data`,
/// then `trailers`, which end the stream.
package enum HTTPStreamPart {
    case head(status: Int, headers: HTTPHeaders)
    case data([UInt8])
    case trailers(HTTPHeaders)
}

/// Writes a streamed answer's parts. Valid until the stream ends; writes after that are dropped.
package struct HTTPStreamWriter {
    private let write: (HTTPStreamPart) -> Void

    /// A writer that hands each part to `write` (the server's; tests collect them).
    package init(_ write: @escaping (HTTPStreamPart) -> Void) {
        self.write = write
    }

    /// Sends `part` (queued behind flow control if the peer's window is closed).
    func callAsFunction(_ part: HTTPStreamPart) {
        write(part)
    }
}

/// A request answered as it streams, created by the server's ``HTTPServer/Configuration/streamOpener``
/// when a stream's headers arrive.
package protocol HTTPStreamHandler: AnyObject {
    /// Bytes of the request body as they arrive, in order (one DATA frame's payload).
    func receive(_ bytes: [UInt8], writer: HTTPStreamWriter)
    /// The request body ended.
    func end(writer: HTTPStreamWriter)
    /// The peer reset the stream or the connection went away: nothing more can be written.
    func cancel()
}

/// Decides, from a stream's request head (its body still empty), whether it is streamed: a handler
/// to stream it, or nil to read the whole body and answer through the server's ``HTTPHandler``.
package typealias HTTPStreamOpener = @Sendable (HTTPRequest) -> (any HTTPStreamHandler)?
