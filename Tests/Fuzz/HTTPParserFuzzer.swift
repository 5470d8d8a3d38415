// libFuzzer harness for SandboxWire's HTTPParser (requests and responses). Built and run by
// .ci/fuzz; seeds in Tests/Fuzz/corpus/http, dictionary Tests/Fuzz/http.dict.
//
// Each input is parsed as a request stream and as a response stream, and each of those three
// ways: in one append, in two appends split at a point derived from the input's hash, and one
// byte at a time. Thrown `HTTPParseError`s are normal outcomes. The properties, any break of
// which traps:
//   * the three feedings give the same messages, and the same error (or none; see `agrees`);
//   * what comes out is what the framing promised: a body no larger than the limit and, for a
//     Content-Length message, exactly that long; tokens and header values free of CR, LF, NUL;
//   * the derived views of a request (path, query, keep-alive) do not trap.
// The limits are the defaults for half the inputs and small ones for the other half, so the
// 431/413 paths are reachable with short inputs.

@testable import SandboxWire

/// Everything a feeding produced, in a comparable form.
private struct Outcome: Equatable {
    var messages: [String] = []
    var error: HTTPParseError?

    /// The same messages, and the same error or none. Limits are checked as bytes arrive, so when
    /// an input breaks a limit and is malformed too, which is noticed first depends on the split:
    /// a limit error may stand for any other error (but never for success).
    func agrees(with other: Outcome) -> Bool {
        guard messages == other.messages else { return false }
        switch (error, other.error) {
        case (nil, nil): return true
        case (let a?, let b?): return a == b || a.isLimit || b.isLimit
        default: return false
        }
    }
}

extension HTTPParseError {
    var isLimit: Bool {
        switch self {
        case .headerTooLarge, .bodyTooLarge, .badRequest("chunk size line too long"): true
        default: false
        }
    }
}

private func describe(_ event: HTTPParser.Event, _ limits: HTTPLimits, head: Bool, _ input: [UInt8]) -> String? {
    switch event {
    case .expectContinue:
        // Depends on whether body bytes have already arrived: not comparable across feedings.
        return nil
    case .request(let request):
        check(headers: request.headers, body: request.body, lengthApplies: true, limits, input)
        guard !request.method.isEmpty, !request.target.isEmpty,
              request.method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
              request.target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            fuzzFail("request line with a bad method or target: \(request.method.debugDescription) \(request.target.debugDescription)", input)
        }
        // Derived views must not trap, whatever the target.
        _ = request.path
        _ = request.queryString
        _ = request.queryItems
        _ = request.query("country")
        _ = request.keepAlive
        return "REQ \(request.method) \(request.target) \(request.version.text) \(fields(request.headers)) \(request.body)"
    case .response(let response):
        // Answers to HEAD, and 204 and 304, have no body whatever their Content-Length says.
        let bodiless = head || response.status == 204 || response.status == 304
        check(headers: response.headers, body: response.body, lengthApplies: !bodiless, limits, input)
        guard (100 ... 999).contains(response.status) else { fuzzFail("status \(response.status)", input) }
        return "RES \(response.status) \(fields(response.headers)) \(response.body)"
    }
}

private func fields(_ headers: HTTPHeaders) -> String {
    headers.fields.map { "\($0.name.debugDescription):\($0.value.debugDescription)" }.joined(separator: ",")
}

private func check(headers: HTTPHeaders, body: [UInt8], lengthApplies: Bool, _ limits: HTTPLimits, _ input: [UInt8]) {
    guard body.count <= limits.maxBodyBytes else { fuzzFail("body of \(body.count) bytes over the limit", input) }
    guard headers.count <= limits.maxHeaderCount else { fuzzFail("\(headers.count) header fields over the limit", input) }
    for field in headers.fields {
        guard !field.name.isEmpty, !field.name.utf8.contains(where: { $0 <= 0x20 || $0 == 0x3A || $0 == 0x7F }),
              !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
            fuzzFail("bad header field \(field.name.debugDescription): \(field.value.debugDescription)", input)
        }
    }
    let lengths = headers.values(for: "Content-Length")
    if lengthApplies, !lengths.isEmpty, !headers.contains("Transfer-Encoding") {
        // Every listed length agrees (the parser refuses otherwise), and the body is that long.
        let declared = lengths.flatMap { $0.split(separator: ",") }.compactMap { Int($0.filter { $0 != " " && $0 != "\t" }) }
        if let first = declared.first, first != body.count {
            fuzzFail("Content-Length \(first) but a body of \(body.count) bytes", input)
        }
    }
}

/// Feeds `input` in the pieces `cuts` delimits (ascending offsets), collecting every event until
/// the end (then `finish()`) or the first error.
private func feed(_ input: [UInt8], cuts: [Int], mode: HTTPParser.Mode, limits: HTTPLimits, head: Bool) -> Outcome {
    var parser = HTTPParser(mode: mode, limits: limits)
    if head { parser.requestMethod = "HEAD" }
    var outcome = Outcome()
    var start = 0
    do throws(HTTPParseError) {
        for end in cuts + [input.count] where end >= start {
            parser.append(input[start ..< end])
            start = end
            while let event = try parser.next() {
                if let text = describe(event, limits, head: head, input) { outcome.messages.append(text) }
            }
        }
        if let event = try parser.finish(), let text = describe(event, limits, head: head, input) { outcome.messages.append(text) }
    } catch {
        outcome.error = error
    }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func httpParserFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    let hash = fuzzHash(input)
    var limits = HTTPLimits()
    if hash & 1 == 1 {
        limits.maxHeaderBytes = 256
        limits.maxHeaderCount = 6
        limits.maxBodyBytes = 64
    }
    let split = input.isEmpty ? 0 : Int((hash >> 8) % UInt64(input.count + 1))
    for mode in [HTTPParser.Mode.request, .response] {
        let head = mode == .response && hash & 2 == 2
        let whole = feed(input, cuts: [], mode: mode, limits: limits, head: head)
        if fuzzShow { fuzzShowLine("\(mode) (limits \(limits), split at \(split)): \(whole)") }
        let halves = feed(input, cuts: [split], mode: mode, limits: limits, head: head)
        guard whole.agrees(with: halves) else {
            fuzzFail("\(mode) in one append gave \(whole), split at \(split) gave \(halves)", input)
        }
        if input.count <= 2048 {
            let bytewise = feed(input, cuts: Array(0 ..< input.count), mode: mode, limits: limits, head: head)
            guard whole.agrees(with: bytewise) else {
                fuzzFail("\(mode) in one append gave \(whole), byte at a time gave \(bytewise)", input)
            }
        }
    }
    return 0
}
