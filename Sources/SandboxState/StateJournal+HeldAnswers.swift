import SandboxHTTP
import SandboxJournal
import Synchronization

extension StateJournal {
    /// The answers an event loop holds until the journal has synced the records they report, kept
    /// on that loop, with one wait on the journal per loop and sync rather than per answer.
    ///
    /// A wait per answer was a callback made on the loop and freed on the journal's thread, and a
    /// task back, made there and freed on the loop: two frees into another thread's allocator per
    /// durable request, whose slow paths took 1.7 µs of each create on 2 cores (perf).
    final class HeldAnswers: Sendable {
        private struct Held {
            /// The count of records appended when it was held: once that many are durable, it goes.
            let records: Int
            let response: HTTPResponse
            let answer: @Sendable (HTTPResponse) -> Void
        }

        private struct State {
            /// Oldest first; `records` never decreases.
            var held: [Held] = []
            /// Whether a wait on the journal is under way (it releases what is due, then waits again if any is left).
            var waiting = false
        }

        private let loop: AnsweringLoop
        private let journal: Journal
        private let state = Mutex(State())

        init(loop: AnsweringLoop, journal: Journal) {
            self.loop = loop
            self.journal = journal
        }

        /// Holds `response` until `records` records are on disk, then gives it to `answer` on the
        /// loop (or a 500, should the journal fail first). On the loop.
        func hold(_ response: HTTPResponse, untilDurable records: Int, _ answer: @escaping @Sendable (HTTPResponse) -> Void) {
            let wait = state.withLock { state in
                state.held.append(Held(records: records, response: response, answer: answer))
                defer { state.waiting = true }
                return !state.waiting
            }
            if wait { waitForSync() }
        }

        private func waitForSync() {
            journal.whenDurable { [self] error in loop.run { self.release(error) } }
        }

        /// Answers what is on disk, and waits again for the rest; on a failure, answers everything.
        private func release(_ failure: JournalError?) {
            let durable = journal.counts.durable
            let (released, more) = state.withLock { state -> ([Held], Bool) in
                let count = failure == nil ? state.held.prefix { $0.records <= durable }.count : state.held.count
                let released = Array(state.held[..<count])
                state.held.removeFirst(count)
                state.waiting = !state.held.isEmpty
                return (released, state.waiting)
            }
            if more { waitForSync() }
            for held in released {
                held.answer(held.records <= durable ? held.response : StateJournal.failure(failure!))
            }
        }
    }
}
