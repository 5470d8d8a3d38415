/// Why protobuf bytes or proto3 JSON could not be read.
///
/// The binary decoder never reads out of bounds and never traps: every malformed input ends in
/// one of these. JSON errors name the field path (`amount.currency`) so a scenario author can
/// find the typo.
package enum ProtobufError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input ended in the middle of a tag or value.
    case truncated
    /// A varint ran past 10 bytes, or its tenth byte carried bits beyond 64.
    case varintTooLong
    /// A tag's wire type is 6 or 7, which the format does not define.
    case invalidWireType(UInt8)
    /// A tag's field number is 0 or above 2^29 - 1.
    case invalidFieldNumber(UInt64)
    /// A length-delimited value's length runs past the end of its message.
    case lengthOutOfBounds
    /// Messages or groups nested deeper than ``ProtobufReader/maxDepth``.
    case nestingTooDeep
    /// An end-group tag without its start, or a start group without its end.
    case unbalancedGroup
    /// A `string` field that is not valid UTF-8 (proto3 requires it).
    case invalidUTF8(field: String)
    /// JSON that does not fit the message: `path` is the dotted field path (empty for the root).
    case invalidJSON(path: String, reason: String)

    /// A one-line explanation, for gRPC status messages and logs.
    package var description: String {
        switch self {
        case .truncated: "truncated message"
        case .varintTooLong: "varint longer than 10 bytes"
        case .invalidWireType(let type): "invalid wire type \(type)"
        case .invalidFieldNumber(let number): "invalid field number \(number)"
        case .lengthOutOfBounds: "length-delimited field runs past the end of the message"
        case .nestingTooDeep: "messages nested too deeply"
        case .unbalancedGroup: "unbalanced group tags"
        case .invalidUTF8(let field): "string field \(field) is not valid UTF-8"
        case .invalidJSON(let path, let reason): path.isEmpty ? reason : "\(path): \(reason)"
        }
    }
}
