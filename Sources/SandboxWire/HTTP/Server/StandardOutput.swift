import Glibc
import Synchronization

/// Serialized writes to file descriptor 1, shared by the access log and the CLI's own messages;
/// and unserialized ones to descriptor 2, for warnings.
package enum StandardOutput {
    private static let lock = Mutex(())

    /// Writes all of `bytes` to standard output as one uninterrupted block.
    package static func write(_ bytes: [UInt8]) {
        lock.withLock { _ in writeAll(bytes, to: 1) }
    }

    /// Writes a line of text.
    package static func writeLine(_ text: String) {
        write(Array((text + "\n").utf8))
    }

    /// Writes all of `bytes` to standard error (as much as it takes).
    package static func writeError(_ bytes: [UInt8]) {
        writeAll(bytes, to: 2)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}
