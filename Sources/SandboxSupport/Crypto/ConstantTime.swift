// Constant-time equality for secrets such as HMAC signatures (RFC 2104 §5
// recommends verifying MACs without leaking where they first differ).

/// Compares two byte collections for equality in time that does not depend on
/// the position or number of differing bytes.
///
/// Every byte pair is visited and the differences are OR-ed together, so a
/// forged signature that matches a long prefix of the expected one is not
/// rejected measurably faster than one that differs in the first byte.
///
/// - Important: Lengths are **not** treated as secret. If the counts differ the
///   function returns `false` immediately. Compare fixed-size values (such as
///   32-byte HMAC-SHA-256 codes or their 64-character hex forms) so the length
///   reveals nothing.
///
/// ```swift
/// let expected = HMACSHA256.authenticationCode(for: body, key: key)
/// guard let received = Hex.decode(signatureHeader),
///       constantTimeEquals(expected, received)
/// else { return .unauthorized }
/// ```
@inlinable
package func constantTimeEquals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    // Contiguous storage (arrays, native strings' UTF-8) takes the pointer path: the generic
    // zip showed up on the signed-request hot path.
    let fast = a.withContiguousStorageIfAvailable { x in
        b.withContiguousStorageIfAvailable { y in
            var difference: UInt8 = 0
            for i in 0 ..< x.count { difference |= x[i] ^ y[i] }
            return difference == 0
        }
    }
    if let fast = fast ?? nil { return fast }
    var difference: UInt8 = 0
    for (x, y) in zip(a, b) {
        difference |= x ^ y
    }
    return difference == 0
}

/// Compares the UTF-8 encodings of two strings in time that does not depend on
/// where they differ. Lengths are not secret: strings of different UTF-8 length
/// compare unequal immediately.
///
/// No Unicode normalization is applied, so `"é"` (U+00E9) and `"e\u{301}"` are
/// unequal here even though `==` on `String` considers them equal. This is the
/// right behaviour for hex signatures and tokens.
///
/// ```swift
/// constantTimeEquals(Hex.uppercase(mac), request.headers["Signature"] ?? "")
/// ```
@inlinable
package func constantTimeEquals(_ a: some StringProtocol, _ b: some StringProtocol) -> Bool {
    constantTimeEquals(a.utf8, b.utf8)
}
