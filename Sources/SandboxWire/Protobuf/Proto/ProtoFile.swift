/// A `.proto` file: what reflection serves as one `FileDescriptorProto`.
///
/// ```swift
/// let file = ProtoFile(name: "grpc/health/v1/health.proto", package: "grpc.health.v1",
///                      messages: [checkRequest, checkResponse], services: [health])
/// ```
package struct ProtoFile: Sendable {
    /// The file's path as imports name it, e.g. `grpc/health/v1/health.proto`.
    package let name: String
    /// The package, e.g. `grpc.health.v1` (every type's full name starts with it).
    package let package: String
    /// The files this one imports, by name.
    let dependencies: [String]
    /// Top-level messages (nested ones are inside them).
    let messages: [MessageSchema]
    /// Top-level enums.
    let enums: [EnumSchema]
    /// Services.
    package let services: [ServiceSchema]

    /// Declares a proto3 file.
    init(name: String, package: String, dependencies: [String] = [], messages: [MessageSchema] = [],
                enums: [EnumSchema] = [], services: [ServiceSchema] = []) {
        self.name = name
        self.package = package
        self.dependencies = dependencies
        self.messages = messages
        self.enums = enums
        self.services = services
        let prefix = package.isEmpty ? "" : package + "."
        for fullName in messages.map(\.fullName) + enums.map(\.fullName) + services.map(\.fullName) {
            precondition(fullName.hasPrefix(prefix) && !fullName.dropFirst(prefix.count).contains("."),
                         "\(name): \(fullName) is not a top-level name in package \(package)")
        }
    }

    /// The fully qualified names this file defines, as reflection's `file_containing_symbol`
    /// looks them up: messages (nested too), their fields, enums, enum values (in the enum's
    /// enclosing scope, as protobuf scopes them), services and their methods.
    var symbols: [String] {
        var names: [String] = []
        func scope(of fullName: String) -> String {
            fullName.split(separator: ".").dropLast().joined(separator: ".")
        }
        func add(_ schema: EnumSchema) {
            names.append(schema.fullName)
            let parent = scope(of: schema.fullName)
            names += schema.values.map { parent.isEmpty ? $0.name : "\(parent).\($0.name)" }
        }
        for message in messages.flatMap(\.allMessages) {
            names.append(message.fullName)
            names += message.fields.map { "\(message.fullName).\($0.name)" }
        }
        for schema in enums + messages.flatMap(\.allEnums) { add(schema) }
        for service in services {
            names.append(service.fullName)
            names += service.methods.map { "\(service.fullName).\($0.name)" }
        }
        return names
    }
}
