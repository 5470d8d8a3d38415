/// A way clients lay JSON text out: the separators and the indentation their serializers write
/// (JavaScript's `JSON.stringify` writes none; Python's `json.dumps` a space after `,` and `:`;
/// both indent when asked). Applied to valid JSON text, it keeps every token and its order and
/// changes only the whitespace between them: what a client that signs one serialization and
/// sends another changes (D24Diagnosis+Signature).
struct JSONLayout {
    /// How the message describes it: `no spaces`.
    let name: String
    /// Written after each `,` and `:`.
    let comma: String, colon: String
    /// Spaces per level; nil: everything on one line.
    let indent: Int?

    static let all = [
        JSONLayout(name: "no spaces", comma: ",", colon: ":", indent: nil),
        JSONLayout(name: "a space after , and :", comma: ", ", colon: ": ", indent: nil),
        JSONLayout(name: "indented by 2 spaces", comma: ",", colon: ": ", indent: 2),
        JSONLayout(name: "indented by 4 spaces", comma: ",", colon: ": ", indent: 4),
    ]

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// `json` (valid JSON text) laid out this way.
    func apply(to json: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(json.count * 2)
        var depth = 0
        var inString = false, escaped = false
        func newline() {
            guard let indent else { return }
            out.append(UInt8(ascii: "\n"))
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * depth))
        }
        var index = 0
        while index < json.count {
            let byte = json[index]
            index += 1
            if inString {
                out.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case _ where Self.isSpace(byte): continue
            case UInt8(ascii: "\""): inString = true; out.append(byte)
            case UInt8(ascii: ","): out.append(contentsOf: (indent == nil ? comma : ",").utf8); newline()
            case UInt8(ascii: ":"): out.append(contentsOf: colon.utf8)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(byte)
                while index < json.count, Self.isSpace(json[index]) { index += 1 }
                if index < json.count, json[index] == UInt8(ascii: "}") || json[index] == UInt8(ascii: "]") { continue }  // empty: {} []
                depth += 1
                newline()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if out.last != UInt8(ascii: "{") && out.last != UInt8(ascii: "[") {
                    depth -= 1
                    newline()
                }
                out.append(byte)
            default: out.append(byte)
            }
        }
        return out
    }
}
