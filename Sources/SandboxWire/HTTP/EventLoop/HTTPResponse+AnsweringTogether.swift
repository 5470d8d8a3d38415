import Glibc

extension HTTPResponse {
    /// Runs `body`, and sends the answers it gives to waiting requests (the `answer` of
    /// ``deferred(_:)``) together when it returns: each event loop is woken once for all of them,
    /// not once per answer. For a thread that answers many requests at once, such as a journal's
    /// group commit: a woken loop may take the CPU from it before it has handed over the rest.
    ///
    /// ```swift
    /// HTTPResponse.answeringTogether { for waiting in synced { waiting.answer(.text("saved")) } }
    /// ```
    package static func answeringTogether(_ body: () -> Void) {
        guard PendingWakes.current == nil else { return body() }  // an outer call wakes them
        let pending = PendingWakes()
        pthread_setspecific(PendingWakes.key, Unmanaged.passUnretained(pending).toOpaque())
        defer {
            pthread_setspecific(PendingWakes.key, nil)
            for inbox in pending.inboxes { inbox.wake() }
        }
        withExtendedLifetime(pending) { body() }
    }
}

/// The event loops to wake once the thread's `answeringTogether` returns (a thread-local: only
/// its own thread touches it).
final class PendingWakes {
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create")
        return key
    }()

    /// The calling thread's, inside `answeringTogether`.
    static var current: PendingWakes? {
        pthread_getspecific(key).map { Unmanaged<PendingWakes>.fromOpaque($0).takeUnretainedValue() }
    }

    private(set) var inboxes: [ConnectionInbox] = []

    func add(_ inbox: ConnectionInbox) {
        if !inboxes.contains(where: { $0 === inbox }) { inboxes.append(inbox) }
    }
}
