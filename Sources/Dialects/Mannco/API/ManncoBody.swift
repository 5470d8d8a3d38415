import SandboxWire
import SandboxSupport

/// A request body as the API's PHP server reads it: a JSON object, or else a form
/// (`application/x-www-form-urlencoded`, curl's `-d` without a content type). Whatever the
/// `Content-Type` says, a body that is a JSON object is read as JSON, so `curl -d '{...}'` works. A
/// form's whole numbers read as JSON numbers, its other values as strings; a body that is neither
/// reads as empty, so it is answered as missing parameters.
enum ManncoBody {
    static func fields(_ request: HTTPRequest) -> [String: JSON] {
        if let object = request.jsonBody?.objectValue { return object }
        let pairs = FormURLEncoding.decode(request.body) ?? []
        return Dictionary(pairs.map { pair in (pair.name, isWhole(pair.value) ? .number(pair.value) : .string(pair.value)) }) { first, _ in first }
    }

    private static func isWhole(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 18 && text.utf8.allSatisfy { (0x30 ... 0x39).contains($0) }
    }
}
