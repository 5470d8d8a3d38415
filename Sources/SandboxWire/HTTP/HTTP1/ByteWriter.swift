/// Writes bytes into room set aside for them (on the stack when small), to append to an array at
/// once: appending a line's parts one by one to an array checks its room and uniqueness for each.
struct ByteWriter {
    private let room: UnsafeMutableBufferPointer<UInt8>
    private var count = 0

    /// Runs `write` over room for at most `most` bytes, then appends what it wrote to `out`.
    static func append(upTo most: Int, to out: inout [UInt8], _ write: (inout ByteWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: most) { room in
            var writer = ByteWriter(room: room)
            write(&writer)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: room[..<writer.count]))
        }
    }

    private init(room: UnsafeMutableBufferPointer<UInt8>) {
        self.room = room
    }

    mutating func put(_ byte: UInt8) {
        precondition(count < room.count, "more bytes than the room set aside")
        room[count] = byte
        count += 1
    }

    /// A string's UTF-8 bytes, copied from where they lie.
    mutating func put(_ text: some StringProtocol) {
        let copied: Int? = text.utf8.withContiguousStorageIfAvailable { bytes in
            precondition(bytes.count <= room.count - count, "more bytes than the room set aside")
            _ = UnsafeMutableBufferPointer(rebasing: room[count...]).initialize(fromContentsOf: bytes)
            return bytes.count
        }
        if let copied { return count += copied }
        for byte in text.utf8 { put(byte) }
    }

    /// The decimal digits of a non-negative `value`.
    mutating func putDecimal(_ value: Int) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        precondition(digits <= room.count - count, "more bytes than the room set aside")
        rest = value
        for place in stride(from: count + digits - 1, through: count, by: -1) {
            room[place] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        count += digits
    }
}
