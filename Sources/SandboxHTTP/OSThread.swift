import CEpoll
import Glibc

/// A joinable POSIX thread, so stopping a server can wait until its loops have really ended.
final class OSThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    private let handle: pthread_t

    /// Starts `body` on a new thread.
    init(name: String, _ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var handle = pthread_t()
        let result = pthread_create(&handle, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        precondition(result == 0, "pthread_create failed: \(result)")
        cepoll_set_thread_name(handle, String(name.prefix(15)))
        self.handle = handle
    }

    /// Waits for the thread to end.
    func join() {
        pthread_join(handle, nil)
    }
}
