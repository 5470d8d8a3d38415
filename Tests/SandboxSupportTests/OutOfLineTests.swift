@testable import SandboxSupport
import Synchronization
import Testing

/// A value kept out of line stays a value: a copy does not see a later change of the original.
@Suite struct OutOfLineTests {
    @Test func settingItPutsANewValueBehindItAndCopiesKeepTheirs() {
        var kept = OutOfLine([1, 2, 3])
        let copy = kept
        kept.value.append(4)
        #expect(kept.value == [1, 2, 3, 4])
        #expect(copy.value == [1, 2, 3])
    }
}

private final class Flag: Sendable {
    let value = Mutex(false)
}

/// A thread runs its body; a joined one has ended.
@Suite struct OSThreadTests {
    @Test func joiningWaitsForTheBodyToEnd() {
        let ran = Flag()
        let thread = OSThread(name: "a-name-longer-than-fifteen-bytes") {
            OSThread.sleep(nanoseconds: 10_000_000)
            ran.value.withLock { $0 = true }
        }
        thread.join()
        #expect(ran.value.withLock { $0 })
    }
}
