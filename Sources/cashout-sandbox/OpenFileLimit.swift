import Glibc

/// Every connection is a file descriptor, and the usual soft limit is 1,024: a thousand idle
/// clients would leave no room for the next one. `serve` raises the soft limit to the hard one
/// (as nginx and Go's runtime do), up to a million.
enum OpenFileLimit {
    /// Raises the soft limit as far as allowed; returns the limit now in force.
    @discardableResult
    static func raise() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let wanted = min(limit.rlim_max, 1 << 20)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return UInt64(limit.rlim_cur)
    }
}
