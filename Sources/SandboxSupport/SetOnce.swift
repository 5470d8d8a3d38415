public import Synchronization

/// A reference set once, by whichever thread sets it first, then read without a lock: the
/// standard library's `AtomicLazyReference`, inlined where it is used. That one's `load()` is not
/// inlinable, and its generic body looks up its type's metadata on every read (about 460
/// instructions; a signed D24 status query read two on its path).
///
/// ```swift
/// let kept = SetOnce<Boxed<Page>>()
/// let page = (kept.load() ?? kept.storeIfNil(Boxed(make()))).value   // the first stored is every reader's
/// ```
///
/// `@usableFromInline`: Swift does not specialize a plain `package` type's inlinable members in
/// another module (the Contributing guide's "Generic code on a request's path").
@usableFromInline package struct SetOnce<Instance: AnyObject & Sendable>: ~Copyable, Sendable {
    /// The instance's address (retained once), 0 until it is set.
    @usableFromInline let address = Atomic<UInt>(0)

    /// Nothing set yet.
    @inlinable package init() {}

    /// The instance set, if one is.
    @inlinable package func load() -> Instance? {
        guard let pointer = UnsafeRawPointer(bitPattern: address.load(ordering: .acquiring)) else { return nil }
        return Unmanaged<Instance>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Sets `instance` if none is set yet, and returns the one set: `instance`, or the one another
    /// thread set first.
    @inlinable package func storeIfNil(_ instance: Instance) -> Instance {
        let retained = Unmanaged.passRetained(instance)
        let (stored, first) = address.compareExchange(expected: 0, desired: UInt(bitPattern: retained.toOpaque()),
                                                      ordering: .acquiringAndReleasing)
        if stored { return instance }
        retained.release()
        return Unmanaged<Instance>.fromOpaque(UnsafeRawPointer(bitPattern: first).unsafelyUnwrapped).takeUnretainedValue()
    }

    deinit {
        if let pointer = UnsafeRawPointer(bitPattern: address.load(ordering: .acquiring)) {
            Unmanaged<Instance>.fromOpaque(pointer).release()
        }
    }
}
