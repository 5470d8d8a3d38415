// HMAC-SHA-256 as specified in RFC 2104, "HMAC: Keyed-Hashing for Message
// Authentication", instantiated with SHA-256 (test vectors: RFC 4231).
//
// HMAC(K, m) = H((K0 ^ opad) || H((K0 ^ ipad) || m)). A `Key` absorbs the
// ipad and opad blocks once, so each message afterwards costs only its own
// compression rounds plus two finishing blocks, with no heap allocation other
// than the 32-byte result.

/// A streaming HMAC-SHA-256 authenticator (RFC 2104).
///
/// Build a ``Key`` once and reuse it for every message signed with that secret:
///
/// ```swift
/// let key = HMACSHA256.Key(Array("cashout_secret_key".utf8))
///
/// // One shot:
/// let mac = HMACSHA256.authenticationCode(for: body, key: key)
///
/// // Streaming:
/// var hmac = HMACSHA256(key: key)
/// hmac.update("Be4".utf8)
/// hmac.update("cashoutID1234".utf8)
/// hmac.update("Bo7".utf8)
/// let signature = Hex.uppercase(hmac.finalize())
/// ```
@usableFromInline package struct HMACSHA256: Sendable {
    /// The size in bytes of an HMAC-SHA-256 authentication code.
    static let byteCount = SHA256.digestByteCount

    /// A prepared HMAC-SHA-256 key: the SHA-256 states that have already
    /// absorbed `K0 ^ ipad` and `K0 ^ opad`.
    ///
    /// Creating a key costs two compression rounds (three if the key is longer
    /// than 64 bytes); signing with it afterwards does not repeat that work.
    ///
    /// ```swift
    /// let key = HMACSHA256.Key(secretBytes)
    /// let key2 = HMACSHA256.Key("your_cashout_api_signature")
    /// ```
    @usableFromInline package struct Key: Sendable {
        @usableFromInline let inner: SHA256
        @usableFromInline let outer: SHA256

        /// Prepares `key` for HMAC-SHA-256. Keys longer than the 64-byte block
        /// are replaced by their SHA-256 digest first, as RFC 2104 requires;
        /// shorter keys are zero-padded.
        ///
        /// ```swift
        /// let key = HMACSHA256.Key([0x0b, 0x0b, 0x0b])
        /// ```
        @inlinable
        package init(_ key: some Sequence<UInt8>) {
            if let prepared = key.withContiguousStorageIfAvailable({ Key(rawKey: UnsafeRawBufferPointer($0)) }) {
                self = prepared
            } else {
                self = Array(key).withUnsafeBytes { Key(rawKey: $0) }
            }
        }

        /// Prepares the UTF-8 encoding of `key` for HMAC-SHA-256.
        ///
        /// ```swift
        /// let key = HMACSHA256.Key("cashout_secret_key")
        /// ```
        @inlinable
        package init(_ key: some StringProtocol) {
            self.init(key.utf8)
        }

        @usableFromInline
        init(rawKey: UnsafeRawBufferPointer) {
            var padded = SHA256.zeroBlock
            withUnsafeMutableBytes(of: &padded) { block in
                if rawKey.count > SHA256.blockByteCount {
                    var hasher = SHA256()
                    hasher.update(rawKey)
                    hasher.finalizeState().store(into: block)
                } else if let base = rawKey.baseAddress, !rawKey.isEmpty {
                    block.baseAddress.unsafelyUnwrapped.copyMemory(from: base, byteCount: rawKey.count)
                }
            }

            var inner = SHA256()
            var outer = SHA256()
            withUnsafeMutableBytes(of: &padded) { block in
                for i in 0..<64 { block[i] ^= 0x36 }
                inner.update(UnsafeRawBufferPointer(block))
                for i in 0..<64 { block[i] ^= 0x36 ^ 0x5c }
                outer.update(UnsafeRawBufferPointer(block))
                // Do not leave key material behind in the stack slot.
                for i in 0..<64 { block[i] = 0 }
            }
            self.inner = inner
            self.outer = outer
        }
    }

    @usableFromInline var inner: SHA256
    @usableFromInline let outer: SHA256

    /// Starts authenticating a new message with `key`.
    ///
    /// ```swift
    /// var hmac = HMACSHA256(key: key)
    /// ```
    @inlinable
    init(key: Key) {
        inner = key.inner
        outer = key.outer
    }

    /// Absorbs the bytes in `bytes` into the message being authenticated.
    ///
    /// ```swift
    /// body.withUnsafeBytes { hmac.update($0) }
    /// ```
    @inlinable
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        inner.update(bytes)
    }

    /// Absorbs a sequence of bytes into the message being authenticated.
    ///
    /// ```swift
    /// hmac.update("cashoutID1234".utf8)
    /// ```
    @inlinable
    package mutating func update(_ bytes: some Sequence<UInt8>) {
        inner.update(bytes)
    }

    /// Finishes the computation and returns the 32-byte authentication code.
    ///
    /// ```swift
    /// let mac: [UInt8] = hmac.finalize()
    /// ```
    @usableFromInline
    consuming func finalize() -> [UInt8] {
        let innerDigest = inner.finalizeState()
        var outer = self.outer
        var digestBytes = SHA256.zeroBlock
        withUnsafeMutableBytes(of: &digestBytes) { block in
            innerDigest.store(into: block)
            outer.update(UnsafeRawBufferPointer(rebasing: block[..<SHA256.digestByteCount]))
        }
        return outer.finalize()
    }

    /// Computes the HMAC-SHA-256 of `message` under a prepared `key` in one call.
    ///
    /// ```swift
    /// let mac = HMACSHA256.authenticationCode(for: Array(body.utf8), key: key)
    /// ```
    @inlinable
    package static func authenticationCode(for message: some Sequence<UInt8>, key: Key) -> [UInt8] {
        var hmac = HMACSHA256(key: key)
        hmac.update(message)
        return hmac.finalize()
    }

    /// Computes the HMAC-SHA-256 of the UTF-8 encoding of `message` under a prepared `key`.
    ///
    /// ```swift
    /// let mac = HMACSHA256.authenticationCode(for: "Be4cashoutID1234Bo7", key: key)
    /// ```
    @inlinable
    package static func authenticationCode(for message: some StringProtocol, key: Key) -> [UInt8] {
        authenticationCode(for: message.utf8, key: key)
    }

    /// Computes the HMAC-SHA-256 of the UTF-8 encoding of `message` keyed with
    /// the UTF-8 encoding of `key`. Prefer a reused ``Key`` when signing many messages.
    ///
    /// ```swift
    /// let signature = Hex.uppercase(
    ///     HMACSHA256.authenticationCode(for: "Be4cashoutID1234Bo7", key: "your_cashout_api_signature"))
    /// ```
    @inlinable
    package static func authenticationCode(for message: some StringProtocol, key: some StringProtocol) -> [UInt8] {
        authenticationCode(for: message.utf8, key: Key(key))
    }
}
