
extension HTTPResponse {
    /// The `grpc-status` a gRPC answer ended with (in its trailers, or in its headers when it is
    /// trailers-only), nil for an answer that is not gRPC's; a number outside the codes is `unknown`.
    package var grpcStatus: GRPCStatus.Code? {
        guard let text = trailers?["grpc-status"] ?? headers["grpc-status"] else { return nil }
        return Int(text).flatMap(GRPCStatus.Code.init(rawValue:)) ?? .unknown
    }
}
