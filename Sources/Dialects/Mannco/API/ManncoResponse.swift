import SandboxWire
import SandboxSupport

/// Mannco's envelope (Mannco.store's API docs, "Introduction"): `{"err":false,"success":true,"content":…}` or
/// `{"err":true,"success":false,"content":"<message>"}`, written with their members in the
/// documents' order (the sandbox's own JSON writer sorts keys).
enum ManncoResponse {
    static func success(_ content: OrderedJSON) -> HTTPResponse {
        answer(.object([("err", false), ("success", true), ("content", content)]), status: 200)
    }

    static func error(_ message: String, status: Int) -> HTTPResponse {
        answer(.object([("err", true), ("success", false), ("content", .value(.string(message)))]), status: status)
    }

    private static func answer(_ body: OrderedJSON, status: Int) -> HTTPResponse {
        var bytes: [UInt8] = []
        body.write(into: &bytes)
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: bytes)
    }
}

/// A JSON value whose objects keep their members in the order given.
indirect enum OrderedJSON: ExpressibleByBooleanLiteral, ExpressibleByStringLiteral {
    case value(JSON)
    case object([(String, OrderedJSON)])
    case array([OrderedJSON])

    init(booleanLiteral value: Bool) { self = .value(.bool(value)) }
    init(stringLiteral value: String) { self = .value(.string(value)) }

    static func number(_ value: Int64) -> OrderedJSON { .value(.number(String(value))) }
    static func optional(_ value: Int64?) -> OrderedJSON { value.map(number) ?? .value(.null) }

    func write(into out: inout [UInt8]) {
        switch self {
        case .value(let json): json.write(into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSON.string(key).write(into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
