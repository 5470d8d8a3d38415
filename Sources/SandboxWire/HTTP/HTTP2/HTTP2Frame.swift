// HTTP/2 frames, RFC 9113 §4 and §6: a 9-byte header (24-bit length, type, flags, a reserved bit
// and a 31-bit stream identifier) and a payload whose layout the type decides.

/// The frame types of RFC 9113 §6; any other is ignored, except inside a header block.
enum HTTP2FrameType: UInt8 {
    case data = 0x0
    case headers = 0x1
    case priority = 0x2
    case rstStream = 0x3
    case settings = 0x4
    case pushPromise = 0x5
    case ping = 0x6
    case goaway = 0x7
    case windowUpdate = 0x8
    case continuation = 0x9
}

/// Frame flags (RFC 9113 §6): their meaning depends on the type.
enum HTTP2Flags {
    static let endStream: UInt8 = 0x1
    static let ack: UInt8 = 0x1
    static let endHeaders: UInt8 = 0x4
    static let padded: UInt8 = 0x8
    static let priority: UInt8 = 0x20
}

/// Error codes for RST_STREAM and GOAWAY (RFC 9113 §7).
enum HTTP2ErrorCode: UInt32 {
    case noError = 0x0
    case protocolError = 0x1
    case internalError = 0x2
    case flowControlError = 0x3
    case settingsTimeout = 0x4
    case streamClosed = 0x5
    case frameSizeError = 0x6
    case refusedStream = 0x7
    case cancel = 0x8
    case compressionError = 0x9
    case connectError = 0xA
    case enhanceYourCalm = 0xB
    case inadequateSecurity = 0xC
    case http11Required = 0xD
}

/// The settings identifiers of RFC 9113 §6.5.2.
enum HTTP2SettingID: UInt16 {
    case headerTableSize = 0x1
    case enablePush = 0x2
    case maxConcurrentStreams = 0x3
    case initialWindowSize = 0x4
    case maxFrameSize = 0x5
    case maxHeaderListSize = 0x6
}

/// A frame's header; the payload follows it in the reader's buffer.
struct HTTP2FrameHeader: Equatable {
    static let size = 9

    var length: Int
    /// The raw type: unknown types are kept, to be ignored.
    var type: UInt8
    var flags: UInt8
    var stream: UInt32

    func has(_ flag: UInt8) -> Bool { flags & flag != 0 }
}

/// The client connection preface (RFC 9113 §3.4), which opens every HTTP/2 connection.
enum HTTP2Preface {
    static let bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
}

extension [UInt8] {
    /// Appends a frame header.
    mutating func appendFrameHeader(length: Int, type: HTTP2FrameType, flags: UInt8 = 0, stream: UInt32) {
        append(UInt8(truncatingIfNeeded: length >> 16))
        append(UInt8(truncatingIfNeeded: length >> 8))
        append(UInt8(truncatingIfNeeded: length))
        append(type.rawValue)
        append(flags)
        appendUInt32(stream & 0x7FFF_FFFF)
    }

    mutating func appendUInt32(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value >> 24))
        append(UInt8(truncatingIfNeeded: value >> 16))
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a whole frame with `payload`.
    mutating func appendFrame(_ type: HTTP2FrameType, flags: UInt8 = 0, stream: UInt32, payload: some Collection<UInt8>) {
        appendFrameHeader(length: payload.count, type: type, flags: flags, stream: stream)
        append(contentsOf: payload)
    }

    mutating func appendRSTStream(_ stream: UInt32, _ code: HTTP2ErrorCode) {
        appendFrameHeader(length: 4, type: .rstStream, stream: stream)
        appendUInt32(code.rawValue)
    }

    mutating func appendWindowUpdate(_ stream: UInt32, _ increment: Int) {
        appendFrameHeader(length: 4, type: .windowUpdate, stream: stream)
        appendUInt32(UInt32(increment))
    }

    mutating func appendGoaway(lastStream: UInt32, _ code: HTTP2ErrorCode, debug: String) {
        let debug = debug.utf8.prefix(256)
        appendFrameHeader(length: 8 + debug.count, type: .goaway, stream: 0)
        appendUInt32(lastStream)
        appendUInt32(code.rawValue)
        append(contentsOf: debug)
    }
}

extension UnsafeRawBufferPointer {
    /// The big-endian 32-bit value at `offset`.
    func uint32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8 | UInt32(self[offset + 3])
    }
}
