// libFuzzer harness for SandboxSupport: the parser every request body goes through, and the writer
// every response comes out of. Built and run by .ci/fuzz; seeds in Tests/Fuzz/corpus/json,
// dictionary Tests/Fuzz/json.dict.
//
// A `JSONParseError` is a normal outcome. The properties, any break of which traps:
//   * the contiguous and the non-contiguous (copying) entry points agree, value or error;
//   * an error's offset lies within the input (0...count);
//   * refusing duplicate keys only ever refuses more: what it accepts equals the lenient value;
//   * round trip: parse(serialized(v)) == v, and serialized is a fixed point (writing the
//     re-parsed value gives the same bytes); the pretty form parses back to v too; the String
//     entry point on the serialized text agrees.

@testable import SandboxSupport

private func same(_ a: Result<JSON, JSONParseError>, _ b: Result<JSON, JSONParseError>) -> Bool {
    switch (a, b) {
    case (.success(let x), .success(let y)): x == y
    case (.failure(let x), .failure(let y)): x == y
    default: false
    }
}

private func parse(_ bytes: some Collection<UInt8>, duplicateKeys: Bool = true) -> Result<JSON, JSONParseError> {
    do throws(JSONParseError) {
        return .success(try JSON.parse(bytes, duplicateKeys: duplicateKeys))
    } catch {
        return .failure(error)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func jsonFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    let lenient = parse(input)
    if fuzzShow { fuzzShowLine("\(lenient)") }

    // A lazy map has no contiguous storage: the parser copies it first.
    let copied = parse(input.lazy.map { $0 })
    guard same(lenient, copied) else { fuzzFail("contiguous gave \(lenient), non-contiguous gave \(copied)", input) }

    let strict = parse(input, duplicateKeys: false)
    switch (lenient, strict) {
    case (.failure(let error), .success):
        fuzzFail("rejected (\(error)) but accepted with duplicateKeys: false", input)
    case (.success(let a), .success(let b)) where a != b:
        fuzzFail("duplicateKeys: false gave a different value", input)
    default:
        break
    }

    let value: JSON
    switch lenient {
    case .failure(let error):
        guard (0 ... input.count).contains(error.offset) else {
            fuzzFail("error offset \(error.offset) outside the \(input.count)-byte input: \(error)", input)
        }
        return 0
    case .success(let parsed):
        value = parsed
    }

    let written = value.serialized()
    switch parse(written) {
    case .failure(let error):
        fuzzFail("serialized form does not parse (\(error)): \(String(decoding: written, as: UTF8.self).debugDescription)", input)
    case .success(let again):
        guard again == value else {
            fuzzFail("round trip changed the value: \(String(decoding: written, as: UTF8.self).debugDescription)", input)
        }
        let rewritten = again.serialized()
        guard rewritten == written else {
            fuzzFail("serialized is not a fixed point: \(String(decoding: written, as: UTF8.self).debugDescription) "
                     + "then \(String(decoding: rewritten, as: UTF8.self).debugDescription)",
                     input)
        }
    }

    let text = value.serializedString()
    guard Array(text.utf8) == written else { fuzzFail("serializedString differs from serialized", input) }
    guard case .success(let fromText) = parse(Array(text.utf8)), fromText == value else {
        fuzzFail("serializedString does not parse back to the value", input)
    }
    do throws(JSONParseError) {
        guard try JSON.parse(text) == value else { fuzzFail("the String entry point gave a different value", input) }
    } catch {
        fuzzFail("the String entry point refused the serialized text: \(error)", input)
    }

    let pretty = value.serializedPretty()
    guard case .success(let fromPretty) = parse(Array(pretty.utf8)), fromPretty == value else {
        fuzzFail("pretty form does not parse back to the value: \(pretty.debugDescription)", input)
    }
    return 0
}
