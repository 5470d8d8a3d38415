
// gRPC server reflection: https://github.com/grpc/grpc/blob/master/doc/server-reflection.md and
// src/proto/grpc/reflection/v1/reflection.proto. Served twice, as grpc.reflection.v1 and
// grpc.reflection.v1alpha (the same messages; grpcurl tries v1 first, grpcio-reflection's Python
// client speaks v1alpha). One bidirectional stream carries any number of requests, each answered
// as soon as it arrives; the call ends OK when the client ends its stream.
//
// Files are sent with their transitive imports, each file once per stream (as grpc-go does); the
// requested file always. Unknown files and symbols, and all extension queries (the sandbox's
// protos have no extensions), answer error_response NOT_FOUND; all_extension_numbers_of_type of
// a known message answers an empty list.

/// One ServerReflectionInfo call.
final class GRPCReflection: GRPCStreamingCall {
    /// The schema of reflection.proto in `package`.
    static func file(package: String) -> ProtoFile {
        func name(_ message: String) -> String { "\(package).\(message)" }
        return ProtoFile(
            name: "grpc/reflection/\(package.split(separator: ".").last ?? "")/reflection.proto", package: package,
            messages: [
                MessageSchema(name("ServerReflectionRequest"), [
                    FieldSchema(1, "host", .string),
                    FieldSchema(3, "file_by_filename", .string, oneof: "message_request"),
                    FieldSchema(4, "file_containing_symbol", .string, oneof: "message_request"),
                    FieldSchema(5, "file_containing_extension", .message(name("ExtensionRequest")), oneof: "message_request"),
                    FieldSchema(6, "all_extension_numbers_of_type", .string, oneof: "message_request"),
                    FieldSchema(7, "list_services", .string, oneof: "message_request"),
                ]),
                MessageSchema(name("ExtensionRequest"), [FieldSchema(1, "containing_type", .string), FieldSchema(2, "extension_number", .int32)]),
                MessageSchema(name("ServerReflectionResponse"), [
                    FieldSchema(1, "valid_host", .string),
                    FieldSchema(2, "original_request", .message(name("ServerReflectionRequest"))),
                    FieldSchema(4, "file_descriptor_response", .message(name("FileDescriptorResponse")), oneof: "message_response"),
                    FieldSchema(5, "all_extension_numbers_response", .message(name("ExtensionNumberResponse")), oneof: "message_response"),
                    FieldSchema(6, "list_services_response", .message(name("ListServiceResponse")), oneof: "message_response"),
                    FieldSchema(7, "error_response", .message(name("ErrorResponse")), oneof: "message_response"),
                ]),
                MessageSchema(name("FileDescriptorResponse"), [FieldSchema(1, "file_descriptor_proto", .bytes, .repeated)]),
                MessageSchema(name("ExtensionNumberResponse"), [
                    FieldSchema(1, "base_type_name", .string), FieldSchema(2, "extension_number", .int32, .repeated),
                ]),
                MessageSchema(name("ListServiceResponse"), [FieldSchema(1, "service", .message(name("ServiceResponse")), .repeated)]),
                MessageSchema(name("ServiceResponse"), [FieldSchema(1, "name", .string)]),
                MessageSchema(name("ErrorResponse"), [FieldSchema(1, "error_code", .int32), FieldSchema(2, "error_message", .string)]),
            ],
            services: [service(package: package)])
    }

    /// The service of reflection.proto in `package` (what a start routes, without the file).
    static func service(package: String) -> ServiceSchema {
        ServiceSchema("\(package).ServerReflection", [
            MethodSchema("ServerReflectionInfo", input: "\(package).ServerReflectionRequest", output: "\(package).ServerReflectionResponse",
                         clientStreaming: true, serverStreaming: true),
        ])
    }

    /// v1, then v1alpha.
    static let packages = ["grpc.reflection.v1", "grpc.reflection.v1alpha"]

    /// reflection.proto in each of `packages`.
    static var files: [ProtoFile] { packages.map(file(package:)) }

    private let registry: ProtoRegistry
    private var sentFiles: Set<String> = []

    init(registry: ProtoRegistry) {
        self.registry = registry
    }

    func received(_ request: ProtoMessage, responder: GRPCStreamResponder) {
        let package = request.schema.fullName.split(separator: ".").dropLast().joined(separator: ".")
        var response = registry.message("\(package).ServerReflectionResponse")
        response["valid_host"] = .string(request.string("host"))
        response["original_request"] = .message(request)
        func error(_ code: GRPCStatus.Code, _ message: String) {
            var error = registry.message("\(package).ErrorResponse")
            error["error_code"] = .int(Int64(code.rawValue))
            error["error_message"] = .string(message)
            response["error_response"] = .message(error)
        }
        func files(_ file: ProtoFile?, notFound: String) {
            guard let file else { return error(.notFound, notFound) }
            var descriptors: [ProtoValue] = []
            for (position, next) in registry.withDependencies(file).enumerated() where position == 0 || !sentFiles.contains(next.name) {
                sentFiles.insert(next.name)
                descriptors.append(.bytes(next.descriptorBytes))
            }
            var answer = registry.message("\(package).FileDescriptorResponse")
            answer["file_descriptor_proto"] = .list(descriptors)
            response["file_descriptor_response"] = .message(answer)
        }
        switch request.oneofCase("message_request") {
        case "list_services":
            var list = registry.message("\(package).ListServiceResponse")
            list["service"] = .list(registry.services.map { service in
                var entry = registry.message("\(package).ServiceResponse")
                entry["name"] = .string(service.fullName)
                return .message(entry)
            })
            response["list_services_response"] = .message(list)
        case "file_by_filename":
            let name = request.string("file_by_filename")
            files(registry.file(named: name), notFound: "file not found: \(name)")
        case "file_containing_symbol":
            let symbol = request.string("file_containing_symbol")
            files(registry.file(containingSymbol: symbol), notFound: "symbol not found: \(symbol)")
        case "file_containing_extension":
            let extensionRequest = request.message("file_containing_extension")
            error(.notFound, "extension not found: \(extensionRequest?.int("extension_number") ?? 0) of type "
                + (extensionRequest?.string("containing_type") ?? ""))
        case "all_extension_numbers_of_type":
            let type = request.string("all_extension_numbers_of_type")
            guard registry.messageSchema(type) != nil else {
                error(.notFound, "type not found: \(type)")
                break
            }
            var numbers = registry.message("\(package).ExtensionNumberResponse")
            numbers["base_type_name"] = .string(type)
            response["all_extension_numbers_response"] = .message(numbers)
        default:
            error(.invalidArgument, "the request has no message_request set")
        }
        responder.send(response)
    }

    func ended(responder: GRPCStreamResponder) {
        responder.finish(.ok)
    }

    func cancelled() {}
}
