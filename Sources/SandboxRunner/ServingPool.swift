import Dispatch
import Synchronization

/// Where an explorer's runs run (`explore --jobs N`): N servings, each a sandbox's port and the
/// app's command of its own, taken by one run at a time; a run asking while all are taken waits.
package final class ServingPool: Sendable {
    private let free: Mutex<[ScenarioRunner.Serving]>
    private let available: DispatchSemaphore
    /// How many runs may run at once.
    package let count: Int

    package init(_ servings: [ScenarioRunner.Serving]) {
        precondition(!servings.isEmpty, "a pool needs a serving")
        free = Mutex(servings)
        available = DispatchSemaphore(value: servings.count)
        count = servings.count
    }

    /// `body` with a serving no other run has meanwhile.
    func with<T, E: Error>(_ body: (ScenarioRunner.Serving) throws(E) -> T) throws(E) -> T {
        available.wait()
        let serving = free.withLock { $0.removeLast() }
        defer {
            free.withLock { $0.append(serving) }
            available.signal()
        }
        return try body(serving)
    }
}
