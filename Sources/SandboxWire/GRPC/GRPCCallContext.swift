import Dispatch

/// What a handler knows about its call besides the request message.
package struct GRPCCallContext: Sendable {
    /// The method's path, e.g. `/types.PayoutService/Get`.
    package let method: String
    /// The request's custom metadata (`-bin` values decoded).
    package let metadata: GRPCMetadata
    /// The client's address, when the server knows it.
    let remoteAddress: SocketAddress?
    /// When the client stops waiting (from `grpc-timeout`), or nil for no deadline.
    let deadline: DispatchTime?
    /// The HTTP/2 request as it arrived (its body is the framed request).
    package let request: HTTPRequest

    /// A context; the server makes these, tests may too.
    init(method: String, metadata: GRPCMetadata = [:], remoteAddress: SocketAddress? = nil,
                deadline: DispatchTime? = nil, request: HTTPRequest) {
        self.method = method
        self.metadata = metadata
        self.remoteAddress = remoteAddress
        self.deadline = deadline
        self.request = request
    }
}
