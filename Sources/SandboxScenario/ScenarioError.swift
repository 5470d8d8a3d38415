/// What is wrong in a scenario file: where (file and JSON path, e.g. `bank.rules[2].then[1].after`)
/// and what was expected there.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let path: String
    public let expected: String

    /// Where in the file and what was expected there, without the file's name.
    public var message: String {
        "\(path.isEmpty ? "(top level)" : path): \(expected)"
    }

    public var description: String {
        "\(file): \(message)"
    }
}
