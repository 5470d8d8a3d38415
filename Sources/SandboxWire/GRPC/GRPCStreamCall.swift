
/// A streaming method's call over an HTTP/2 stream: request bytes are deframed and decoded as
/// they arrive and handed to the method's ``GRPCStreamingCall``, which answers through a
/// ``GRPCStreamResponder``. Errors in the request stream end the call with their status.
/// grpc-timeout is not enforced on streaming calls (their answers are written on the event loop
/// as requests arrive; nothing is pending).
final class GRPCStreamCall: HTTPStreamHandler {
    private let registry: ProtoRegistry
    private let method: MethodSchema
    private let call: any GRPCStreamingCall
    private var deframer: GRPCDeframer
    private var responder: GRPCStreamResponder?
    private let path: String
    private let metrics: GRPCMetrics?
    private var received = 0

    /// A call counted in `metrics` when it ends (nil: the caller counts it).
    init(server: GRPCServer, method: MethodSchema, context: GRPCCallContext, call: any GRPCStreamingCall, metrics: GRPCMetrics?) {
        registry = server.registry
        self.method = method
        self.call = call
        deframer = GRPCDeframer(maxMessageSize: server.maxStreamingMessageSize)
        path = context.method
        self.metrics = metrics
    }

    private func responder(_ writer: HTTPStreamWriter) -> GRPCStreamResponder {
        if let responder {
            responder.writer = writer
            return responder
        }
        let made = GRPCStreamResponder(writer: writer, path: path, metrics: metrics)
        responder = made
        return made
    }

    func receive(_ bytes: [UInt8], writer: HTTPStreamWriter) {
        let responder = responder(writer)
        guard !responder.isFinished else { return }
        do {
            for bytes in try deframer.append(bytes) {
                received += 1
                guard method.clientStreaming || received == 1 else {
                    throw GRPCStatus(.unimplemented, "cardinality violation: \(path) takes one request message, got more")
                }
                let message: ProtoMessage
                do {
                    message = try registry.decode(method.input, from: bytes)
                } catch {
                    throw GRPCStatus(.internal, "could not decode request message: \(error)")
                }
                call.received(message, responder: responder)
                if responder.isFinished { return }
            }
        } catch let status as GRPCStatus {
            finish(status, responder)
        } catch {
            finish(GRPCStatus(.internal, "\(error)"), responder)
        }
    }

    func end(writer: HTTPStreamWriter) {
        let responder = responder(writer)
        guard !responder.isFinished else { return }
        if deframer.hasPartialMessage { return finish(GRPCStatus(.internal, "the request stream ends inside a message"), responder) }
        if !method.clientStreaming, received == 0 {
            return finish(GRPCStatus(.unimplemented, "cardinality violation: \(path) needs one request message, got 0"), responder)
        }
        call.ended(responder: responder)
    }

    func cancel() {
        responder?.cancel()
        call.cancelled()
    }

    private func finish(_ status: GRPCStatus, _ responder: GRPCStreamResponder) {
        responder.finish(status)
        call.cancelled()
    }

    /// The call answered from a whole request body, as one response: for a server that reads
    /// the body instead of streaming it. A call still open when the body has been handled (health
    /// Watch) ends there with OK.
    static func batch(server: GRPCServer, method: MethodSchema, context: GRPCCallContext, call: any GRPCStreamingCall) -> HTTPResponse {
        final class Collector {
            var response = HTTPResponse(status: 200)
        }
        let collector = Collector()
        let writer = HTTPStreamWriter { part in
            switch part {
            case .head(let status, let headers):
                collector.response.status = status
                collector.response.headers = headers
            case .data(let bytes): collector.response.body += bytes
            case .trailers(let trailers): collector.response.trailers = trailers
            }
        }
        let stream = GRPCStreamCall(server: server, method: method, context: context, call: call, metrics: nil)
        stream.receive(context.request.body, writer: writer)
        stream.end(writer: writer)
        if let responder = stream.responder, !responder.isFinished {
            responder.finish(.ok)
            call.cancelled()
        }
        return collector.response
    }
}
