import SandboxProtobuf

// Hyperswitch Prism's payout API (the Unified Connector Service's `types.PayoutService`), as
// schemas: every message, enum and field the eight PayoutService RPCs reach, with Prism's names
// and numbers, from Prism's protos at commit 76c9327 (crates/types-traits/grpc-api-types/proto:
// services.proto, payouts.proto, payment.proto, payment_methods.proto). Prism's files declare
// much more (payments, refunds, disputes); only what the payout RPCs reach is here, so a client
// generated from Prism's own protos and one generated from Protos/ speak the same wire format.
//
// Protos/ holds the same four files as .proto text (no options or field comments), so protoc's
// descriptors equal `descriptorBytes` byte for byte, which is what reflection serves
// (Tests/PrismAPITests checks both against a descriptor set protoc compiled).

/// Prism's PayoutService protos, package `types`.
public enum PrismProtos {
    /// services.proto, payouts.proto, payment.proto and payment_methods.proto.
    public static let files: [ProtoFile] = [services, payouts, payment, paymentMethods]

    /// The service's full name; its methods are `/types.PayoutService/<Method>`.
    public static let serviceName = "types.PayoutService"

    /// `services.proto`: PayoutService alone (Prism's declares its other services too).
    static let services = ProtoFile(
        name: "services.proto", package: "types", dependencies: ["payouts.proto"],
        services: [
            ServiceSchema(serviceName, [
                MethodSchema("Create", input: "types.PayoutServiceCreateRequest", output: "types.PayoutServiceCreateResponse"),
                MethodSchema("Transfer", input: "types.PayoutServiceTransferRequest", output: "types.PayoutServiceTransferResponse"),
                MethodSchema("Get", input: "types.PayoutServiceGetRequest", output: "types.PayoutServiceGetResponse"),
                MethodSchema("Void", input: "types.PayoutServiceVoidRequest", output: "types.PayoutServiceVoidResponse"),
                MethodSchema("Stage", input: "types.PayoutServiceStageRequest", output: "types.PayoutServiceStageResponse"),
                MethodSchema("CreateLink", input: "types.PayoutServiceCreateLinkRequest", output: "types.PayoutServiceCreateLinkResponse"),
                MethodSchema("CreateRecipient", input: "types.PayoutServiceCreateRecipientRequest",
                             output: "types.PayoutServiceCreateRecipientResponse"),
                MethodSchema("EnrollDisburseAccount", input: "types.PayoutServiceEnrollDisburseAccountRequest",
                             output: "types.PayoutServiceEnrollDisburseAccountResponse"),
            ]),
        ])
}
