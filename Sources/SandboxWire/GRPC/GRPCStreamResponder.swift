
/// The server side of one streaming call (health Watch, reflection), driven on the connection's
/// event loop: it must not block.
protocol GRPCStreamingCall: AnyObject {
    /// A request message arrived.
    func received(_ message: ProtoMessage, responder: GRPCStreamResponder)
    /// The client finished sending (half-close): the call may finish, or keep streaming.
    func ended(responder: GRPCStreamResponder)
    /// The stream is gone: nothing more can be sent.
    func cancelled()
}

/// Makes a streaming method's call for each stream.
typealias GRPCStreamingMethod = @Sendable (GRPCCallContext) -> any GRPCStreamingCall

/// Writes a streaming call's answer: the head once, framed messages, then the status in trailers.
final class GRPCStreamResponder {
    var writer: HTTPStreamWriter
    private let path: String
    private let metrics: GRPCMetrics?
    private var headSent = false
    /// Whether the status was sent (later writes are dropped).
    private(set) var isFinished = false

    init(writer: HTTPStreamWriter, path: String, metrics: GRPCMetrics?) {
        self.writer = writer
        self.path = path
        self.metrics = metrics
    }

    private func sendHead() {
        guard !headSent else { return }
        headSent = true
        writer(.head(status: 200, headers: ["content-type": "application/grpc"]))
    }

    /// Sends one response message.
    func send(_ message: ProtoMessage) {
        guard !isFinished else { return }
        sendHead()
        writer(.data(GRPCDeframer.frame(message.encoded())))
    }

    /// Ends the call with `status`.
    func finish(_ status: GRPCStatus) {
        guard !isFinished else { return }
        sendHead()
        isFinished = true
        var trailers: HTTPHeaders = ["grpc-status": String(status.code.rawValue)]
        if !status.message.isEmpty { trailers.add("grpc-message", GRPCStatus.percentEncoded(status.message)) }
        writer(.trailers(trailers))
        metrics?.record(method: path, code: status.code)
    }

    /// The stream went away before the call finished.
    func cancel() {
        guard !isFinished else { return }
        isFinished = true
        metrics?.record(method: path, code: .cancelled)
    }
}
