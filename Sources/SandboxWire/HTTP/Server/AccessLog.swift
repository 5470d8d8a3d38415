import SandboxSupport

/// One line per request: time, method, path, status and duration, as text or JSON.
///
/// Each event loop collects lines and hands them to `write` in batches (at 16 KiB, on its
/// housekeeping tick a few times a second, and when it stops), so logging costs one system call
/// per batch rather than one per request; a line appears at most a quarter second late.
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
    var format: Format
    /// Receives a batch of complete lines.
    package var write: @Sendable ([UInt8]) -> Void

    /// A log that hands batches to `write`.
    init(format: Format, write: @escaping @Sendable ([UInt8]) -> Void) {
        self.format = format
        self.write = write
    }

    /// A log on standard output; batches from different loops never interleave.
    package static func standardOutput(format: Format) -> AccessLog {
        AccessLog(format: format) { bytes in StandardOutput.write(bytes) }
    }

    /// Appends one line to `buffer` (no intermediate strings: this runs per request).
    func appendLine(method: String, path: Substring, status: Int, nanoseconds: Int64, time: String,
                    to buffer: inout [UInt8]) {
        switch format {
        case .text:
            // Made in place and appended at once: each part appended on its own cost about 100 instructions.
            ByteWriter.append(upTo: time.utf8.count + method.utf8.count + path.utf8.count + 48, to: &buffer) { line in
                line.put(time)
                line.put(UInt8(ascii: " "))
                line.put(method)
                line.put(UInt8(ascii: " "))
                line.put(path)
                line.put(UInt8(ascii: " "))
                line.putDecimal(status)
                line.put(UInt8(ascii: " "))
                Self.putMilliseconds(nanoseconds, to: &line)
                line.put("ms\n")
            }
        case .json:
            var millis: [UInt8] = []
            ByteWriter.append(upTo: 32, to: &millis) { Self.putMilliseconds(nanoseconds, to: &$0) }
            let line: JSON = ["time": .string(time), "method": .string(method), "path": .string(String(path)),
                              "status": .number(status), "duration_ms": .number(String(decoding: millis, as: UTF8.self))]
            line.write(into: &buffer)
            buffer.append(UInt8(ascii: "\n"))
        }
    }

    /// `1.234` for 1,234,567 ns: milliseconds with three decimals.
    private static func putMilliseconds(_ nanoseconds: Int64, to line: inout ByteWriter) {
        let micros = Int(max(0, nanoseconds) / 1000)
        line.putDecimal(micros / 1000)
        line.put(UInt8(ascii: "."))
        let fraction = micros % 1000
        line.put(UInt8(ascii: "0") + UInt8(fraction / 100))
        line.put(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        line.put(UInt8(ascii: "0") + UInt8(fraction % 10))
    }
}
