/// How a scenario's steps went.
public struct ScenarioResult: Sendable {
    public let name: String
    public let file: String
    /// The first failing step (1-based) and what was expected against what happened; nil: passed.
    public let failure: (step: Int, message: String)?
    public let steps: Int
    public let seconds: Double

    public var passed: Bool { failure == nil }

    public init(name: String, file: String, failure: (step: Int, message: String)?, steps: Int, seconds: Double) {
        self.name = name
        self.file = file
        self.failure = failure
        self.steps = steps
        self.seconds = seconds
    }
}
