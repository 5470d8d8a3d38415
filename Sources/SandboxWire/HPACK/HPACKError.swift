// What decoding an HPACK header block (RFC 7541) can fail with, and the HTTP/2 error it maps to.

/// Why a header block could not be decoded.
///
/// A `.compression` error leaves the decoder's dynamic table out of step with the peer's encoder:
/// the connection must end with COMPRESSION_ERROR (RFC 9113 §4.3). `.headerListTooLarge` does not:
/// the decoder processed the whole block first, so only the stream is refused.
struct HPACKError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure.
    enum Kind: Sendable, Equatable {
        /// A malformed block: HTTP/2 COMPRESSION_ERROR, a connection error.
        case compression(String)
        /// The decoded list exceeds `maxHeaderListSize` (RFC 9113 §6.5.2); the table is in sync.
        case headerListTooLarge
    }

    /// Which failure this is.
    package var kind: Kind

    /// An error of this kind.
    package init(_ kind: Kind) { self.kind = kind }

    /// A malformed block, for `reason`: HTTP/2 COMPRESSION_ERROR.
    static func compression(_ reason: String) -> HPACKError { HPACKError(.compression(reason)) }

    /// The decoded header list is larger than the decoder's `maxHeaderListSize`.
    static let headerListTooLarge = HPACKError(.headerListTooLarge)

    /// Whether this is `.headerListTooLarge` (a stream error), rather than a compression error.
    var isHeaderListTooLarge: Bool { kind == .headerListTooLarge }

    /// A one-line account of the failure.
    package var description: String {
        switch kind {
        case .compression(let reason): "HPACK compression error: \(reason)"
        case .headerListTooLarge: "HPACK: the header list is larger than the advertised maximum"
        }
    }
}
