package import SandboxWire

extension GRPCServer {
    /// Sets the handler of `operation`, a unary method declared in the server's files.
    package mutating func handle(_ operation: APIOperation, _ handler: @escaping GRPCUnaryHandler) {
        guard let path = operation.grpcPath else { preconditionFailure("\(operation) is not a gRPC method") }
        handle(path, handler)
    }
}
