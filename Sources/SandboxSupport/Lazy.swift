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
/// `make` must not read the same `Lazy` (it would wait for itself). Once made, a read takes no
/// lock (one atomic load): a `Lazy` can sit on a request's path.
package final class Lazy<Value: Sendable>: Sendable {
    private let made = SetOnce<Boxed<Value>>()
    /// What makes the value, until it is made.
    private let maker: Mutex<(@Sendable () -> Value)?>

    /// A value that `make` makes when it is first read.
    package init(_ make: @escaping @Sendable () -> Value) {
        maker = Mutex(make)
    }

    /// The value, made now if this is the first read.
    package var value: Value {
        if let box = made.load() { return box.value }
        return maker.withLock { make in
            if let box = made.load() { return box.value }  // made while this thread waited
            guard let making = make else { preconditionFailure("a Lazy without its value or its maker") }
            make = nil
            return made.storeIfNil(Boxed(making())).value
        }
    }
}
