public import Synchronization

/// A value behind one reference: what `OutOfLine` keeps, what a `SetOnce` sets once (a decoded
/// body's forms, a request's facts, a `Lazy`'s value).
@usableFromInline package final class Boxed<Value: Sendable>: Sendable {
    @usableFromInline package let value: Value

    @inlinable package init(_ value: Value) {
        self.value = value
    }
}

/// A value kept out of line, behind one reference: for a part that is large but rare (a
/// notification's chaos plan) or the same in many owners (a delivery's outcome, see
/// `InternTable`), so that an owner pays 8 bytes for it rather than its size. It stays a value:
/// setting it puts a new one behind a new reference.
@usableFromInline package struct OutOfLine<Value: Sendable>: Sendable {
    @usableFromInline var box: Boxed<Value>

    @inlinable package init(_ value: Value) {
        box = Boxed(value)
    }

    @inlinable package var value: Value {
        get { box.value }
        set { box = Boxed(newValue) }
    }
}

/// Hands out one shared form for equal values (an `OutOfLine` outcome, a callback URL's string),
/// so that a million equal ones cost one. At most `capacity` values are kept; past that, the
/// table starts afresh (bounded memory, whatever the receivers answer or the clients send, and
/// the values of a later run are still shared).
///
/// The value interned last is compared first, before any hashing: a run interns the same one
/// again and again (every payout's callback URL, every answer of a sink).
///
/// `@usableFromInline` and inlinable, so that another module's table is specialized for its types: a
/// generic one looks up their metadata at run time on every call, which costs more than the lookup
/// (the Contributing guide's "Generic code on a request's path").
@usableFromInline package struct InternTable<Value: Hashable & Sendable, Shared: Sendable>: Sendable {
    @usableFromInline var table: [Value: Shared] = [:]
    @usableFromInline var last: (value: Value, shared: Shared)?
    @usableFromInline let capacity: Int

    package init(capacity: Int = 256) {
        self.capacity = capacity
    }

    @inlinable package mutating func intern(_ value: Value, _ share: (Value) -> Shared) -> Shared {
        if let last, last.value == value { return last.shared }
        let shared: Shared
        if let known = table[value] {
            shared = known
        } else {
            shared = share(value)
            if table.count == capacity { table.removeAll(keepingCapacity: true) }
            table[value] = shared
        }
        last = (value, shared)
        return shared
    }

    /// What was shared for the value interned last, if that value passes `test`.
    @inlinable func lastShared(where test: (Value) -> Bool) -> Shared? {
        guard let last, test(last.value) else { return nil }
        return last.shared
    }
}

extension InternTable where Value == Shared {
    /// The string equal to `text` kept first: its storage is shared.
    @inlinable mutating func intern(_ text: Value) -> Value {
        intern(text) { $0 }
    }
}

/// An `InternTable` for the whole process, behind a lock: for values made where no bank is at
/// hand (a status change's rare parts, a payout's origin).
@usableFromInline package final class SharedValues<Value: Hashable & Sendable>: Sendable {
    @usableFromInline let table: Mutex<InternTable<Value, Value>>

    package init(capacity: Int) {
        table = Mutex(InternTable(capacity: capacity))
    }

    /// The value equal to `value` kept first (`value` itself when none is, or when full).
    @inlinable package func intern(_ value: Value) -> Value {
        table.withLock { $0.intern(value) }
    }

    /// The value interned last when it passes `isLast`, else `intern(make())`: for a caller that
    /// can tell the value it would make apart without making it.
    @inlinable package func intern(unlessLast isLast: (Value) -> Bool, _ make: () -> Value) -> Value {
        table.withLock { table in table.lastShared(where: isLast) ?? table.intern(make()) }
    }
}
