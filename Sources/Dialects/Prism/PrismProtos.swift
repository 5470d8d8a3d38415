import SandboxWire

// Hyperswitch Prism's payout API (the Unified Connector Service's `types.PayoutService`): every
// message, enum and field the eight PayoutService RPCs reach, with Prism's names and numbers,
// from Prism's protos at commit 76c9327 (crates/types-traits/grpc-api-types/proto). Prism's files
// declare much more (payments, refunds, disputes); only what the payout RPCs reach is in Protos/,
// so a client generated from Prism's own protos and one generated from Protos/ speak the same
// wire format.
//
// Protos/ is the one declaration: its four files are compiled in (`.embedInCode`) and read into
// schemas when first used (a start reads only their services, to route the methods), from which
// decoding, encoding, JSON and the descriptors reflection serves all come. Tests/PrismAPITests
// checks those descriptors against protoc's, byte for byte.

/// Prism's PayoutService protos, package `types`.
enum PrismProtos {
    /// services.proto, payouts.proto, payment.proto and payment_methods.proto.
    static let files: [ProtoFile] = {
        do {
            return try ProtoText.files(sources)
        } catch {
            preconditionFailure("Protos/ compiled into SandboxPrism does not read: \(error)")
        }
    }()

    /// The services of `files`, read from services.proto alone (a start routes the methods; the
    /// messages are read when a call first needs them, and the services checked against them).
    static let services: [ServiceSchema] = {
        do {
            return try ProtoText.services(of: sources[0])
        } catch {
            preconditionFailure("Protos/ compiled into SandboxPrism does not read: \(error)")
        }
    }()

    /// The files' names, as they import each other, and their text.
    private static var sources: [(name: String, text: String)] {
        [("services.proto", PackageResources.services_proto), ("payouts.proto", PackageResources.payouts_proto),
         ("payment.proto", PackageResources.payment_proto), ("payment_methods.proto", PackageResources.payment_methods_proto)]
            .map { ($0, String(decoding: $1, as: UTF8.self)) }
    }

    /// The service's full name; its methods are `/types.PayoutService/<Method>`.
    static let serviceName = "types.PayoutService"
}
