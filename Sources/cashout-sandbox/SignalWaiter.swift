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
    /// Blocked, they stay pending until `wait()` takes them, whatever their action: Linux never
    /// discards a blocked signal, so this works when a parent left them ignored and for PID 1 in a
    /// container (which gets no default action). Both cases are tested end to end.
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
