import Glibc

extension UnsafeBufferPointer<UInt8> {
    /// Whether `other` holds the same bytes, compared whole (`memcmp`), not element by element.
    func same(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        count == other.count && (isEmpty || memcmp(baseAddress!, other.baseAddress!, count) == 0)
    }
}
