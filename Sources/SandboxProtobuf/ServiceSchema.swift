/// A service: its full name and methods.
///
/// ```swift
/// ServiceSchema("grpc.health.v1.Health", [
///     MethodSchema("Check", input: "grpc.health.v1.HealthCheckRequest", output: "grpc.health.v1.HealthCheckResponse"),
/// ])
/// ```
public struct ServiceSchema: Sendable {
    /// The full name, e.g. `types.PayoutService`.
    public let fullName: String
    /// The methods in declaration order.
    public let methods: [MethodSchema]

    /// Declares a service.
    public init(_ fullName: String, _ methods: [MethodSchema]) {
        self.fullName = fullName
        self.methods = methods
    }

    /// The last component of the full name.
    public var name: String { String(fullName.split(separator: ".").last ?? "") }

    /// The method named `name`.
    public func method(_ name: String) -> MethodSchema? {
        methods.first { $0.name == name }
    }
}
