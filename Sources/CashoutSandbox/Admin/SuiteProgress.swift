package import SandboxSupport
import Synchronization

/// How far the steps of the suite run against this sandbox have come (`cashout-sandbox test
/// --serve`), as `GET /sandbox/suite` answers it: so that the app's driver, run beside the steps,
/// knows when they are over (the Testing your app guide, "Knowing when the steps are over").
/// A sandbox started otherwise (`serve`) runs no suite: the endpoint answers 404.
///
/// ```swift
/// sandbox.suite.start(steps: 12)
/// sandbox.suite.step(1)          // {"state": "running", "step": 1, "steps": 12, "failure": null, "cases": []}
/// sandbox.suite.end(failure: nil) // {"state": "passed", "step": 12, ...}; its cases once judged
/// ```
public final class SuiteProgress: Sendable {
    private struct State {
        var steps = 0
        var step = 0
        /// nil: running; then whether it passed, and the failure.
        var ended: (passed: Bool, failure: String?)?
        /// Its cases once the run is judged (the Testing your app guide, "Cases"), as `GET /sandbox/suite` lists them.
        var cases: [JSON] = []
    }

    /// nil: no suite runs against this sandbox.
    private let state = Mutex<State?>(nil)

    init() {}

    /// A suite starts, none of its steps running yet.
    ///
    /// - Parameter steps: How many steps it has.
    public func start(steps: Int) {
        state.withLock { $0 = State(steps: steps) }
    }

    /// A step starts.
    ///
    /// - Parameter number: The step's number, from 1.
    public func step(_ number: Int) {
        state.withLock { $0?.step = number }
    }

    /// The steps are over.
    ///
    /// - Parameters:
    ///   - failure: Why the first step that failed failed; nil when every step held.
    ///   - failed: The number of the step that failed, from 1; nil: the one running.
    public func end(failure: String?, step failed: Int? = nil) {
        state.withLock { state in
            guard var ended = state else { return }
            if failure == nil { ended.step = ended.steps } else if let failed { ended.step = failed }
            ended.ended = (failure == nil, failure)
            state = ended
        }
    }

    /// The run is judged: its cases, each as `GET /sandbox/suite` lists it.
    package func judged(cases: [JSON]) {
        state.withLock { $0?.cases = cases }
    }

    /// Puts back what `json` (this endpoint's answer, kept in a run's record) says: a finished run shown again (`show`).
    func restore(_ json: JSON) {
        guard let steps = json["steps"]?.numberText.flatMap({ Int($0) }), let step = json["step"]?.numberText.flatMap({ Int($0) }),
              let name = json["state"]?.stringValue else { return }
        var restored = State(steps: steps, step: step)
        if name != "running" { restored.ended = (name == "passed", json["failure"]?.stringValue) }
        restored.cases = json["cases"]?.arrayValue ?? []
        state.withLock { $0 = restored }
    }

    /// `GET /sandbox/suite`'s answer; nil when no suite runs.
    package var json: JSON? {
        state.withLock { state in
            state.map { state in
                let name = state.ended.map { $0.passed ? "passed" : "failed" } ?? "running"
                return ["state": .string(name), "step": .number(state.step), "steps": .number(state.steps),
                        "failure": state.ended?.failure.map(JSON.string) ?? .null, "cases": .array(state.cases)]
            }
        }
    }
}
