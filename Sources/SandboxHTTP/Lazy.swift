import Synchronization

/// A value made the first time it is read, once, whichever thread reads first (the others wait
/// for it), then kept: for what a running sandbox may never need, such as its OpenAPI document's
/// parts or its dashboard page, so that starting one does not pay for them (the Contributing
/// guide's start-up budget).
///
/// ```swift
/// let page = Lazy { Dashboard.page(parts: parts) }   // nothing made yet
/// router.add("GET /") { _ in page.value }            // made by the first request, then kept
/// ```
///
/// `make` must not read the same `Lazy` (it would wait for itself).
public final class Lazy<Value: Sendable>: Sendable {
    private let state: Mutex<Value?> = Mutex(nil)
    private let make: @Sendable () -> Value

    /// A value that `make` makes when it is first read.
    public init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    /// The value, made now if this is the first read.
    public var value: Value {
        state.withLock { value in
            if let value { return value }
            let made = make()
            value = made
            return made
        }
    }
}
