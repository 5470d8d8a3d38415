import SandboxJSON

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

    /// Appends one line to `buffer`, byte by byte (no intermediate strings: this runs per request).
    func appendLine(method: String, path: Substring, status: Int, nanoseconds: Int64, time: String,
                    to buffer: inout [UInt8]) {
        switch format {
        case .text:
            buffer.appendUTF8(time)
            buffer.append(UInt8(ascii: " "))
            buffer.appendUTF8(method)
            buffer.append(UInt8(ascii: " "))
            buffer.appendUTF8(path)
            buffer.append(UInt8(ascii: " "))
            buffer.appendDecimal(status)
            buffer.append(UInt8(ascii: " "))
            appendMilliseconds(nanoseconds, to: &buffer)
            buffer.append(contentsOf: "ms\n".utf8)
        case .json:
            var millis: [UInt8] = []
            appendMilliseconds(nanoseconds, to: &millis)
            let line: JSON = ["time": .string(time), "method": .string(method), "path": .string(String(path)),
                              "status": .number(status), "duration_ms": .number(String(decoding: millis, as: UTF8.self))]
            line.write(into: &buffer)
            buffer.append(UInt8(ascii: "\n"))
        }
    }

    /// `1.234` for 1,234,567 ns: milliseconds with three decimals.
    private func appendMilliseconds(_ nanoseconds: Int64, to buffer: inout [UInt8]) {
        let micros = Int(max(0, nanoseconds) / 1000)
        buffer.appendDecimal(micros / 1000)
        buffer.append(UInt8(ascii: "."))
        let fraction = micros % 1000
        buffer.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        buffer.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        buffer.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }
}
