/// What is wrong in a scenario file: where (file and JSON path, e.g. `bank.rules[2].then[1].after`)
/// and what was expected there.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let path: String
    public let expected: String

    public var description: String {
        "\(file): \(path.isEmpty ? "(top level)" : path): \(expected)"
    }
}
