import Dispatch
import Glibc
package import SandboxWire
import Synchronization

/// How the tests wait for something that is going to happen (an answer, a line of output, a
/// delivery, a status change): until it has happened, checked often, up to one generous bound
/// that only a real hang reaches. A busy machine makes a test slower, never wrong: no verdict
/// depends on how fast the machine is (the Contributing guide, "Tests on a busy machine").
package enum Waiting {
    /// The longest a test waits for something that is going to happen. On a quiet machine what it
    /// waits for takes milliseconds; on a loaded one (a debug build, two cores, a load of 10)
    /// seconds. A wait that reaches this is a hang.
    package static let limit: Duration = .seconds(120)

    /// ``limit`` in seconds.
    package static let seconds = 120

    /// A test's own time limit (the trait `.timeLimit(.minutes(Waiting.testMinutes))`), for a test
    /// that could block for ever where no bound of ours reaches (an `open` of a FIFO): past
    /// ``limit``, so that the test's own waits report first.
    package static let testMinutes = 3

    /// Checks `condition` every 10 ms until it holds; false if it still does not after ``limit``.
    @discardableResult
    package static func until(_ condition: () throws -> Bool) rethrows -> Bool {
        try value { try condition() ? true : nil } ?? false
    }

    /// The first value `probe` gives, checked every 10 ms; nil if it gives none within ``limit``.
    package static func value<T>(_ probe: () throws -> T?) rethrows -> T? {
        let deadline = ContinuousClock.now + limit
        while true {
            if let value = try probe() { return value }
            if ContinuousClock.now >= deadline { return nil }
            usleep(10_000)
        }
    }
}

/// A door a test opens once it has seen what it waits for: what is held on it (a handler's
/// answer, a receiver's) goes on only then, so that "B was answered while A was still held" is
/// an order of events the test makes, not a race against a timer.
package final class Latch: Sendable {
    private let door = DispatchGroup()
    private let opened = Atomic<Bool>(false)

    package init() {
        door.enter()
    }

    /// Lets everything held go, now and from now on (again: nothing more).
    package func open() {
        if !opened.exchange(true, ordering: .acquiringAndReleasing) { door.leave() }
    }

    package var isOpen: Bool { opened.load(ordering: .acquiring) }

    /// Blocks until the latch is open, at most ``Waiting/limit``: whether it opened.
    @discardableResult
    package func wait() -> Bool {
        door.wait(timeout: .now() + .seconds(Waiting.seconds)) == .success
    }

    /// Runs `work` on a global queue once the latch is open (holding no thread meanwhile).
    package func notify(_ work: @escaping @Sendable () -> Void) {
        door.notify(queue: .global(), execute: work)
    }

    deinit {
        open()  // a group released while entered is a crash in Dispatch
    }
}

/// The tests' HTTP client: ``HTTPClient/send(method:url:headers:body:timeout:limits:)`` waiting
/// up to ``Waiting/limit`` for the answer. The client's own default (5 s, a webhook delivery's)
/// is for receivers that may hang; a debug build answering a snapshot PUT on a busy machine
/// takes longer than that, and is not hanging. A test of the client's timeout itself calls
/// `HTTPClient.send` with the timeout it checks.
package enum TestHTTP {
    package static func send(method: String, url: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
                            limits: HTTPLimits = HTTPLimits()) throws(HTTPClientError) -> HTTPResponse {
        try HTTPClient.send(method: method, url: url, headers: headers, body: body, timeout: Waiting.limit, limits: limits)
    }
}
