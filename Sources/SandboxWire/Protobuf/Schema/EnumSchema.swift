/// An enum: its full name and its values in declaration order (proto3: the first is 0).
///
/// ```swift
/// EnumSchema("types.PayoutStatus", ["PAYOUT_STATUS_UNSPECIFIED": 0, "SUCCESS": 1, "FAILURE": 2])
/// ```
package struct EnumSchema: Sendable {
    /// The full name, e.g. `grpc.health.v1.HealthCheckResponse.ServingStatus`.
    let fullName: String
    /// The values in declaration order.
    let values: [(name: String, number: Int32)]

    /// Declares an enum; proto3 wants the first value to be 0.
    package init(_ fullName: String, _ values: KeyValuePairs<String, Int32>) {
        self.init(fullName, values.map { ($0.key, $0.value) })
    }

    /// Declares an enum from its values in order (as `.proto` text gives them).
    package init(_ fullName: String, _ values: [(String, Int32)]) {
        precondition(values.first?.1 == 0, "enum \(fullName): the first value must be 0")
        self.fullName = fullName
        self.values = values.map { (name: $0.0, number: $0.1) }
    }

    /// The last component of the full name.
    package var name: String { String(fullName.split(separator: ".").last ?? "") }

    /// The first value's name with this number (open enums keep unknown numbers: nil).
    package func name(of number: Int32) -> String? {
        values.first { $0.number == number }?.name
    }

    /// The number of the value named `name`.
    package func number(of name: String) -> Int32? {
        values.first { $0.name == name }?.number
    }
}
