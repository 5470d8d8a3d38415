import SandboxContract
import Dispatch
package import SandboxBank
public import SandboxWire
public import SandboxSupport
import Synchronization

/// One line per thing that happened in the sandbox (a cashout created, a status change, a webhook
/// attempt, the clock moved, a scenario loaded, a reset), in the access log's format, plus the
/// lines `serve` prints for people (`listening on http://...`).
///
/// The bank tells it of its events under its lock, so `record` only queues them; a background
/// queue formats and writes them in order, a few lines per system call. `flush()` writes what is
/// queued and returns once it is written (`Sandbox.stop()` calls it).
///
/// ```swift
/// var configuration = Sandbox.Configuration()
/// configuration.eventLog = .standardOutput(format: .json)
/// // {"time":"2026-05-04T10:11:12.345Z","event":"cashout.created","amount":"100.00","cashout_id":1000001,...}
/// ```
public final class EventLog: Sendable {
    /// A line's fields in the order text lines show them.
    public typealias Fields = [(String, JSON)]

    private enum Item: Sendable {
        case bank(BankEvent)
        case line(event: String, message: String?, fields: [(String, JSON)])
    }

    /// `text`: `TIME EVENT key=value ...`; `json`: one object per line with `time` and `event` first.
    public let format: AccessLog.Format
    private let write: @Sendable ([UInt8]) -> Void
    private let pending = Mutex<[(time: Int64, item: Item)]>([])
    private let queue = DispatchQueue(label: "cashout-sandbox.event-log")

    /// A log that hands each batch of complete lines to `write`, one batch at a time.
    ///
    /// - Parameters:
    ///   - format: Text for people or JSON lines.
    ///   - write: Takes a batch of complete lines, never two at once.
    public init(format: AccessLog.Format, write: @escaping @Sendable ([UInt8]) -> Void) {
        self.format = format
        self.write = write
    }

    /// A log on standard output, shared with the access log without interleaving inside lines.
    ///
    /// - Parameter format: Text for people or JSON lines.
    /// - Returns: The log.
    public static func standardOutput(format: AccessLog.Format) -> EventLog {
        EventLog(format: format) { StandardOutput.write($0) }
    }

    /// A line for people (`listening on http://...`): as is in text, and in JSON an object whose
    /// `message` holds the same text, with `event` and `fields`.
    ///
    /// - Parameters:
    ///   - text: The line for people.
    ///   - event: The event's name, JSON's `event`.
    ///   - fields: More members of the JSON object, in order.
    public func message(_ text: String, event: String, fields: Fields = []) {
        enqueue(.line(event: event, message: text, fields: fields))
    }

    /// An event the bank does not see (a scenario loaded, a reset).
    package func event(_ name: String, _ fields: Fields) {
        enqueue(.line(event: name, message: nil, fields: fields))
    }

    /// Queues a bank event; quick enough to run under the bank's lock (no formatting, no I/O).
    package func record(_ event: BankEvent) {
        enqueue(.bank(event))
    }

    /// Writes every line queued so far and returns once they are written.
    public func flush() {
        queue.sync { drain() }
    }

    private func enqueue(_ item: Item) {
        let time = VirtualClock.wallMilliseconds()
        let first = pending.withLock { items in
            items.append((time, item))
            return items.count == 1
        }
        if first { queue.async { self.drain() } }
    }

    /// On `queue`: formats and writes what is queued.
    private func drain() {
        let items = pending.withLock { items in
            defer { items.removeAll() }
            return items
        }
        guard !items.isEmpty else { return }
        var bytes: [UInt8] = []
        for (time, item) in items {
            switch item {
            case .bank(let event):
                let (name, fields) = Self.describe(event)
                appendLine(time: time, event: name, message: nil, fields: fields, to: &bytes)
            case .line(let event, let message, let fields):
                appendLine(time: time, event: event, message: message, fields: fields, to: &bytes)
            }
        }
        write(bytes)
    }

    private func appendLine(time: Int64, event: String, message: String?, fields: Fields, to bytes: inout [UInt8]) {
        let stamp = Self.timestamp(time)
        switch format {
        case .text:
            if let message {
                bytes.append(contentsOf: message.utf8)
            } else {
                bytes.append(contentsOf: stamp.utf8)
                bytes.append(UInt8(ascii: " "))
                bytes.append(contentsOf: event.utf8)
                for (key, value) in fields {
                    bytes.append(UInt8(ascii: " "))
                    bytes.append(contentsOf: key.utf8)
                    bytes.append(UInt8(ascii: "="))
                    Self.appendText(value, to: &bytes)
                }
            }
        case .json:
            // `time` and `event` first, for people reading the raw lines; the rest sorted.
            bytes.append(contentsOf: #"{"time":"#.utf8)
            JSON.string(stamp).write(into: &bytes)
            bytes.append(contentsOf: #","event":"#.utf8)
            JSON.string(event).write(into: &bytes)
            var rest: [String: JSON] = [:]
            for (key, value) in fields { rest[key] = value }
            if let message { rest["message"] = .string(message) }
            if !rest.isEmpty {
                bytes.append(UInt8(ascii: ","))
                var object: [UInt8] = []
                JSON.object(rest).write(into: &object)
                bytes.append(contentsOf: object.dropFirst())  // its members and closing brace
            } else {
                bytes.append(UInt8(ascii: "}"))
            }
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    /// A value in a text line: a plain word as is, anything else (spaces, quotes, `=`) as JSON.
    private static func appendText(_ value: JSON, to bytes: inout [UInt8]) {
        if case .string(let text) = value, !text.isEmpty,
           text.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x22 && $0 != 0x3D && $0 != 0x5C && $0 != 0x7F }) {
            bytes.append(contentsOf: text.utf8)
        } else {
            value.write(into: &bytes)
        }
    }

    /// `2026-05-04T10:11:12.345Z`: wall-clock milliseconds, always three decimals.
    static func timestamp(_ milliseconds: Int64) -> String {
        let text = VirtualTime(milliseconds: milliseconds).iso8601
        return text.contains(".") ? text : String(text.dropLast()) + ".000Z"
    }
}
