// gRPC status codes: https://github.com/grpc/grpc/blob/master/doc/statuscodes.md
// grpc-message encoding: https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md (Responses):
// the message's UTF-8 bytes, each outside 0x20-0x7E and each '%' written as %XX.

/// A call's outcome: a code and a message for the client's developer. Handlers throw or return it.
///
/// ```swift
/// throw GRPCStatus(.notFound, "no payout po_1")
/// ```
package struct GRPCStatus: Error, Sendable, Equatable, CustomStringConvertible {
    /// The canonical status codes.
    package enum Code: Int, Sendable, CaseIterable {
        case ok = 0, cancelled, unknown, invalidArgument, deadlineExceeded, notFound, alreadyExists, permissionDenied,
             resourceExhausted, failedPrecondition, aborted, outOfRange, unimplemented, `internal`, unavailable, dataLoss,
             unauthenticated

        /// The canonical name, e.g. `NOT_FOUND` (what metrics and logs show).
        package var name: String {
            switch self {
            case .ok: "OK"
            case .cancelled: "CANCELLED"
            case .unknown: "UNKNOWN"
            case .invalidArgument: "INVALID_ARGUMENT"
            case .deadlineExceeded: "DEADLINE_EXCEEDED"
            case .notFound: "NOT_FOUND"
            case .alreadyExists: "ALREADY_EXISTS"
            case .permissionDenied: "PERMISSION_DENIED"
            case .resourceExhausted: "RESOURCE_EXHAUSTED"
            case .failedPrecondition: "FAILED_PRECONDITION"
            case .aborted: "ABORTED"
            case .outOfRange: "OUT_OF_RANGE"
            case .unimplemented: "UNIMPLEMENTED"
            case .internal: "INTERNAL"
            case .unavailable: "UNAVAILABLE"
            case .dataLoss: "DATA_LOSS"
            case .unauthenticated: "UNAUTHENTICATED"
            }
        }
    }

    /// The code.
    package var code: Code
    /// The message (plain text; percent-encoded only on the wire).
    package var message: String

    /// A status with a code and a message.
    package init(_ code: Code, _ message: String = "") {
        self.code = code
        self.message = message
    }

    /// The status a gRPC client gives a call answered with HTTP `status` instead of a gRPC answer (a
    /// proxy's error): 401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 404 UNIMPLEMENTED, 429, 502,
    /// 503 and 504 UNAVAILABLE, 400 INTERNAL, any other UNKNOWN (gRPC's "HTTP to gRPC Status Code
    /// Mapping", doc/http-grpc-status-mapping.md).
    package init(httpStatus status: Int, _ message: String) {
        let code: Code = switch status {
        case 400: .internal
        case 401: .unauthenticated
        case 403: .permissionDenied
        case 404: .unimplemented
        case 429, 502, 503, 504: .unavailable
        default: .unknown
        }
        self.init(code, message)
    }

    /// Success.
    package static let ok = GRPCStatus(.ok)

    /// `CODE: message`.
    package var description: String { message.isEmpty ? code.name : "\(code.name): \(message)" }

    /// `message` as the `grpc-message` header carries it.
    static func percentEncoded(_ message: String) -> String {
        var out = ""
        for byte in message.utf8 {
            if byte >= 0x20, byte <= 0x7E, byte != UInt8(ascii: "%") {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return out
    }

    /// A `grpc-message` value decoded; malformed escapes are kept as they are, as gRPC's
    /// PROTOCOL-HTTP2.md asks ("Responses": Status-Message).
    package static func percentDecoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
