import Glibc

/// The event loop whose thread is calling: work another thread finishes for one of its requests
/// is handed back to it. A journal's sync lets a response go on the journal's thread; with this,
/// what the response's observers then do (record it, count it, free the request) runs on the loop
/// that read the request, as it does in memory, rather than on the journal's thread, which would
/// free the loops' memory and contend for their allocator.
public struct AnsweringLoop: Sendable {
    private let inbox: ConnectionInbox

    /// The calling thread's loop; nil off the server's loops (a test calling the handler itself).
    public static var current: AnsweringLoop? {
        pthread_getspecific(key).map { AnsweringLoop(inbox: Unmanaged<ConnectionInbox>.fromOpaque($0).takeUnretainedValue()) }
    }

    /// Runs `work` on the loop, after the events it is handling (at once if the loop has ended).
    /// Any thread; inside `HTTPResponse.answeringTogether` the loop wakes once, at its end.
    public func run(_ work: @escaping @Sendable () -> Void) {
        inbox.run(work)
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create")
        return key
    }()

    /// Marks the calling thread as `inbox`'s loop (nil: no longer). The loop keeps its inbox alive.
    static func setCurrent(_ inbox: ConnectionInbox?) {
        pthread_setspecific(key, inbox.map { Unmanaged.passUnretained($0).toOpaque() })
    }
}
