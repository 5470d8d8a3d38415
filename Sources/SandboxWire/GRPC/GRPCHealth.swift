
// gRPC health checking: https://github.com/grpc/grpc/blob/master/doc/health-checking.md
// Every service the server declares is SERVING, and so is the server as a whole (service "").
// Check answers NOT_FOUND for any other name; Watch sends SERVICE_UNKNOWN for it instead, and,
// since statuses never change here, sends the one status and stays open until cancelled.
// The schema matches Protos/grpc/health/v1/health.proto.

/// `grpc.health.v1.Health`.
enum GRPCHealth {
    static let file = ProtoFile(
        name: "grpc/health/v1/health.proto", package: "grpc.health.v1",
        messages: [
            MessageSchema("grpc.health.v1.HealthCheckRequest", [FieldSchema(1, "service", .string)]),
            MessageSchema("grpc.health.v1.HealthCheckResponse", [
                FieldSchema(1, "status", .enumeration("grpc.health.v1.HealthCheckResponse.ServingStatus")),
            ], enums: [
                EnumSchema("grpc.health.v1.HealthCheckResponse.ServingStatus",
                           ["UNKNOWN": 0, "SERVING": 1, "NOT_SERVING": 2, "SERVICE_UNKNOWN": 3]),
            ]),
        ],
        services: [
            ServiceSchema("grpc.health.v1.Health", [
                MethodSchema("Check", input: "grpc.health.v1.HealthCheckRequest", output: "grpc.health.v1.HealthCheckResponse"),
                MethodSchema("Watch", input: "grpc.health.v1.HealthCheckRequest", output: "grpc.health.v1.HealthCheckResponse",
                             serverStreaming: true),
            ]),
        ])

    /// SERVING for "" and every declared service; nil for an unknown name.
    private static func status(of service: String, registry: ProtoRegistry) -> ProtoMessage? {
        guard service.isEmpty || registry.service(service) != nil else { return nil }
        var response = registry.message("grpc.health.v1.HealthCheckResponse")
        response["status"] = "SERVING"
        return response
    }

    static func check(_ request: ProtoMessage, registry: ProtoRegistry) throws -> GRPCReply {
        guard let response = status(of: request.string("service"), registry: registry) else {
            throw GRPCStatus(.notFound, "unknown service")
        }
        return .message(response)
    }

    /// One Watch call: the status once, then open until cancelled.
    final class Watch: GRPCStreamingCall {
        private let registry: ProtoRegistry

        init(registry: ProtoRegistry) {
            self.registry = registry
        }

        func received(_ message: ProtoMessage, responder: GRPCStreamResponder) {
            var unknown = registry.message("grpc.health.v1.HealthCheckResponse")
            unknown["status"] = "SERVICE_UNKNOWN"
            responder.send(GRPCHealth.status(of: message.string("service"), registry: registry) ?? unknown)
        }

        func ended(responder: GRPCStreamResponder) {}

        func cancelled() {}
    }
}
