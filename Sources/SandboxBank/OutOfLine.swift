/// A value kept out of line, behind one reference: for a part that is large but rare (a
/// notification's chaos plan) or the same in many owners (a delivery's outcome, see
/// `InternTable`), so that an owner pays 8 bytes for it rather than its size. It stays a value:
/// setting it puts a new one behind a new reference.
struct OutOfLine<Value: Sendable>: Sendable {
    private final class Box: Sendable {
        let value: Value

        init(_ value: Value) {
            self.value = value
        }
    }

    private var box: Box

    init(_ value: Value) {
        box = Box(value)
    }

    var value: Value {
        get { box.value }
        set { box = Box(newValue) }
    }
}

/// Hands out one `OutOfLine` for equal values, so that a million equal outcomes share one.
/// At most `capacity` values are kept; past that, each gets its own (bounded memory, whatever
/// the receivers answer).
struct InternTable<Value: Hashable & Sendable>: Sendable {
    private var table: [Value: OutOfLine<Value>] = [:]
    private let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    mutating func intern(_ value: Value) -> OutOfLine<Value> {
        if let shared = table[value] { return shared }
        let boxed = OutOfLine(value)
        if table.count < capacity { table[value] = boxed }
        return boxed
    }
}
