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
    static func blockTerminationSignals() {
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
