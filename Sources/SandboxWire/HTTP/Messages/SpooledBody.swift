import Glibc

/// A request body kept in a temporary file rather than in memory: the body of a route in
/// ``HTTPLimits/spooledBodyRoutes`` (an upload of saved state may be hundreds of megabytes), written
/// as it arrives. The file is unlinked as soon as it is made: it goes away when the last copy of
/// its body does, or with the process.
///
/// ```swift
/// if let spooled = request.spooledBody {
///     try spooled.withFileDescriptor { fd in try read(fd) }   // with pread: the offset is yours
/// }
/// ```
package struct SpooledBody: Sendable {
    let file: SpoolFile
    /// The body's length in bytes.
    package let count: Int

    /// Calls `body` with the file's descriptor, valid while it runs. Read it with `pread`.
    package func withFileDescriptor<Result>(_ body: (Int32) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(file) { try body(file.fd) }
    }
}

/// The temporary file a body is spooled to, closed when the last reference to it goes.
final class SpoolFile: Sendable {
    let fd: Int32

    /// A new file in `directory` (nil: `$TMPDIR`, or `/tmp`), already unlinked.
    init(in directory: String?) throws(HTTPParseError) {
        let directory = directory ?? getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/cashout-sandbox-body-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw .bodyNotStored("\(directory): \(String(cString: strerror(errno)))") }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.fd = fd
    }

    deinit { close(fd) }

    /// Writes `bytes` at `offset`.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(HTTPParseError) {
        var done = 0
        while done < bytes.count {
            let count = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw .bodyNotStored(String(cString: strerror(count == 0 ? EIO : errno))) }
            done += count
        }
    }
}
