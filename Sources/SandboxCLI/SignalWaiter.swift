import Glibc

/// Waits for SIGINT or SIGTERM on the calling thread with `sigwait`, instead of an asynchronous
/// handler: the graceful stop then runs as ordinary code.
enum SignalWaiter {
    private static var terminationSignals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }

    /// Blocks SIGINT and SIGTERM for this thread and the threads it starts from now on.
    ///
    /// A no-op handler is installed first: a parent may have left the signals ignored (ignored
    /// signals are discarded, never reaching `sigwait`), and an init process (PID 1 in a container)
    /// gets no default action at all. With a handler and the signals blocked, they stay pending
    /// until `wait()` takes them.
    static func blockTerminationSignals() {
        signal(SIGINT) { _ in }
        signal(SIGTERM) { _ in }
        var set = terminationSignals
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Returns the first SIGINT or SIGTERM received.
    static func wait() -> Int32 {
        var set = terminationSignals
        var signal: Int32 = 0
        while sigwait(&set, &signal) != 0 {}
        return signal
    }
}
