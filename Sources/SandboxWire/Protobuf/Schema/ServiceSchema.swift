/// A service: its full name and methods.
///
/// ```swift
/// ServiceSchema("grpc.health.v1.Health", [
///     MethodSchema("Check", input: "grpc.health.v1.HealthCheckRequest", output: "grpc.health.v1.HealthCheckResponse"),
/// ])
/// ```
package struct ServiceSchema: Sendable, Equatable {
    /// The full name, e.g. `types.PayoutService`.
    package let fullName: String
    /// The methods in declaration order.
    package let methods: [MethodSchema]

    /// Declares a service.
    package init(_ fullName: String, _ methods: [MethodSchema]) {
        self.fullName = fullName
        self.methods = methods
    }

    /// The last component of the full name.
    package var name: String { String(fullName.split(separator: ".").last ?? "") }

    /// The method named `name`.
    package func method(_ name: String) -> MethodSchema? {
        methods.first { $0.name == name }
    }
}
