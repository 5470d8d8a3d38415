import CSystem
import Glibc

/// A POSIX thread: joinable, so stopping a server can wait until its loops have really ended, or
/// detached (`detach`), for the sandbox's other threads, which end on their own.
package final class OSThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private let handle: pthread_t

    /// Starts `body` on a new thread, named `name` (its first 15 bytes: Linux's limit) if given.
    package init(name: String?, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var handle = pthread_t()
        let result = pthread_create(&handle, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        precondition(result == 0, "pthread_create failed: \(result)")
        if let name { cepoll_set_thread_name(handle, String(name.prefix(15))) }
        self.handle = handle
    }

    /// Waits for the thread to end.
    package func join() {
        pthread_join(handle, nil)
    }

    /// Starts `body` on a thread that nobody waits for: it ends when `body` returns.
    package static func detach(name: String? = nil, _ body: @escaping @Sendable () -> Void) {
        pthread_detach(OSThread(name: name, body).handle)
    }

    /// Sleeps the calling thread for `nanoseconds` (all of them, however often a signal wakes it).
    package static func sleep(nanoseconds: Int64) {
        var left = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var rest = timespec()
        while nanosleep(&left, &rest) != 0 && errno == EINTR { left = rest }
    }
}
