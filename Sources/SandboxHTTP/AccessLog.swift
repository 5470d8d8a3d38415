import Glibc
import SandboxJSON
import Synchronization

/// One line per request: time, method, path, status and duration, as text or JSON.
///
/// Lines are batched per event-loop iteration and handed to `write` together, so logging costs one
/// system call per batch rather than one per request.
///
/// ```swift
/// configuration.accessLog = .standardOutput(format: .json)
/// ```
public struct AccessLog: Sendable {
    /// The line format.
    public enum Format: String, Sendable, CaseIterable {
        /// `2026-01-05T09:00:00Z GET /sandbox/health 200 0.041ms`
        case text
        /// `{"duration_ms":0.041,"method":"GET","path":"/sandbox/health","status":200,"time":"2026-01-05T09:00:00Z"}`
        case json
    }

    /// The line format.
    public var format: Format
    /// Receives a batch of complete lines.
    public var write: @Sendable ([UInt8]) -> Void

    /// A log that hands batches to `write`.
    public init(format: Format, write: @escaping @Sendable ([UInt8]) -> Void) {
        self.format = format
        self.write = write
    }

    /// A log on standard output; batches from different loops never interleave.
    public static func standardOutput(format: Format) -> AccessLog {
        AccessLog(format: format) { bytes in StandardOutput.write(bytes) }
    }

    /// Appends one line to `buffer`.
    func appendLine(method: String, path: Substring, status: Int, nanoseconds: Int64, time: String,
                    to buffer: inout [UInt8]) {
        let micros = nanoseconds / 1000
        let millis = "\(micros / 1000).\(String(micros % 1000 + 1000).dropFirst())"
        switch format {
        case .text:
            buffer.append(contentsOf: "\(time) \(method) \(path) \(status) \(millis)ms\n".utf8)
        case .json:
            let line: JSON = ["time": .string(time), "method": .string(method), "path": .string(String(path)),
                              "status": .number(status), "duration_ms": .number(millis)]
            line.write(into: &buffer)
            buffer.append(UInt8(ascii: "\n"))
        }
    }
}

/// Serialized writes to file descriptor 1, shared by the access log and the CLI's own messages.
public enum StandardOutput {
    private static let lock = Mutex(())

    /// Writes all of `bytes` to standard output as one uninterrupted block.
    public static func write(_ bytes: [UInt8]) {
        lock.withLock { _ in
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = Glibc.write(1, raw.baseAddress! + offset, raw.count - offset)
                    if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
                }
            }
        }
    }

    /// Writes a line of text.
    public static func writeLine(_ text: String) {
        write(Array((text + "\n").utf8))
    }
}
