// libFuzzer harness for SandboxWire's HTTP2Session (the server side of an HTTP/2 connection, with
// HPACK from SandboxWire). Built and run by .ci/fuzz; seeds in Tests/Fuzz/corpus/http2 (client
// conversations: frames, without the preface), dictionary Tests/Fuzz/http2.dict.
//
// Each input is what a client sends after the connection preface, which the harness puts first.
// It is fed to a fresh session in one piece, and in two pieces split at a point derived from the
// input's hash; after the input, every ready request is answered (a body, and trailers for some).
// A third session gets the input a byte at a time (inputs up to 2 KiB) and answers each request
// as soon as it is ready, so answers meet later WINDOW_UPDATEs, SETTINGS and resets. The
// properties, any break of which traps:
//   * nothing crashes, whatever follows the preface;
//   * the output is a whole sequence of well-formed frames: types a server sends, stream ids
//     where their type needs them (0 or an odd client stream), the fixed payload lengths, header
//     blocks that are HEADERS then CONTINUATIONs on one stream, decodable by an HPACK decoder,
//     nothing on a stream after its END_STREAM or RST_STREAM, nothing after an error GOAWAY;
//   * one piece and two pieces give identical ready requests and identical output bytes;
//   * every ready request is well-formed: a token method, a target that is `*` or starts with
//     `/` (printable ASCII), version HTTP/2, lowercase field names and values free of CR, LF, NUL,
//     a body within the limit.
// Half the inputs get small limits (streams, header list, body, window, control-frame burst,
// header block) so the 431/413/REFUSED_STREAM/ENHANCE_YOUR_CALM paths are reachable.

@testable import SandboxWire

/// Echoes a streamed request (path /stream): a head at the first bytes, each DATA back, trailers.
private final class EchoStream: HTTPStreamHandler {
    private var headSent = false

    func receive(_ bytes: [UInt8], writer: HTTPStreamWriter) {
        if !headSent {
            headSent = true
            writer(.head(status: 200, headers: ["content-type": "application/grpc"]))
        }
        writer(.data(bytes))
    }

    func end(writer: HTTPStreamWriter) {
        if !headSent { writer(.head(status: 200, headers: [:])) }
        writer(.trailers(["grpc-status": "0"]))
    }

    func cancel() {}
}

private let opener: HTTPStreamOpener = { request in request.path == "/stream" ? EchoStream() : nil }

private func limits(_ hash: UInt64) -> HTTPLimits {
    var limits = HTTPLimits()
    if hash & 1 == 1 {
        limits.maxHeaderBytes = 512
        limits.maxBodyBytes = 256
        limits.http2.maxConcurrentStreams = 4
        limits.http2.initialWindowSize = 1024
        limits.http2.maxHeaderBlockBytes = 2048
        limits.http2.maxBufferedBodyBytes = 2048
        limits.http2.controlFrameBurst = 64
    }
    return limits
}

private func answer(_ id: UInt32, _ request: HTTPRequest, on session: HTTP2Session) {
    let body = Array("answer to \(request.method) \(request.target)".utf8)
    switch id % 4 {
    case 1: session.respond(id, with: HTTPResponse(headers: ["x-stream": String(id)], body: body), date: "Mon, 23 Nov 2026 00:00:00 GMT")
    case 3: session.respond(id, with: HTTPResponse(body: body + [UInt8](repeating: 0x2E, count: Int(id % 7) * 5000), trailers: ["grpc-status": "0"]))
    default: session.respond(id, with: HTTPResponse(status: 204))
    }
}

private func check(_ request: HTTPRequest, _ limits: HTTPLimits, _ input: [UInt8]) {
    guard !request.method.isEmpty, request.method.utf8.allSatisfy(\.isTokenByte) else {
        fuzzFail("method \(request.method.debugDescription)", input)
    }
    guard request.target == "*" || request.target.utf8.first == UInt8(ascii: "/"),
          request.target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
        fuzzFail("target \(request.target.debugDescription)", input)
    }
    guard request.version == .http2 else { fuzzFail("version \(request.version)", input) }
    guard request.body.count <= limits.maxBodyBytes else { fuzzFail("body of \(request.body.count) bytes", input) }
    for field in request.headers.fields {
        guard !field.name.isEmpty, field.name.utf8.allSatisfy({ $0.isTokenByte && !($0 >= 0x41 && $0 <= 0x5A) }),
              !field.value.utf8.contains(where: { $0 == 0 || $0 == 0x0D || $0 == 0x0A }) else {
            fuzzFail("field \(field.name.debugDescription): \(field.value.debugDescription)", input)
        }
    }
    _ = request.path
    _ = request.queryItems
}

/// Checks that `output` is a sequence of well-formed server frames.
private func checkFrames(_ output: [UInt8], _ input: [UInt8]) {
    var decoder = HPACKDecoder(maxTableSize: 4096, maxHeaderListSize: 1 << 24)
    var offset = 0
    var block: (stream: UInt32, bytes: [UInt8])?
    var ended = Set<UInt32>()
    var failed = false
    var first = true
    while offset < output.count {
        guard output.count - offset >= 9 else { fuzzFail("output ends inside a frame header", input) }
        let length = Int(output[offset]) << 16 | Int(output[offset + 1]) << 8 | Int(output[offset + 2])
        let type = output[offset + 3], flags = output[offset + 4]
        let stream = UInt32(output[offset + 5]) << 24 | UInt32(output[offset + 6]) << 16
            | UInt32(output[offset + 7]) << 8 | UInt32(output[offset + 8])
        guard output.count - offset - 9 >= length else { fuzzFail("output ends inside a frame", input) }
        let payload = Array(output[offset + 9 ..< offset + 9 + length])
        offset += 9 + length
        guard !failed else { fuzzFail("a frame after an error GOAWAY", input) }
        guard let kind = HTTP2FrameType(rawValue: type), stream & 0x8000_0000 == 0 else { fuzzFail("frame type \(type)", input) }
        if let open = block, kind != .continuation || stream != open.stream {
            fuzzFail("\(kind) inside a header block on stream \(open.stream)", input)
        }
        let onStream = stream != 0 && stream & 1 == 1
        switch kind {
        case .settings:
            guard stream == 0, first ? flags == 0 && length % 6 == 0 : flags == HTTP2Flags.ack && length == 0 else {
                fuzzFail("SETTINGS flags \(flags) length \(length)", input)
            }
        case .ping:
            guard stream == 0, length == 8, flags == HTTP2Flags.ack else {
                fuzzFail("PING on stream \(stream), \(length) bytes, flags \(flags)", input)
            }
        case .goaway:
            guard stream == 0, length >= 8 else { fuzzFail("GOAWAY", input) }
            failed = payload[4 ..< 8] != [0, 0, 0, 0]
        case .windowUpdate:
            guard length == 4, payload[0] & 0x80 == 0, payload != [0, 0, 0, 0] else { fuzzFail("WINDOW_UPDATE \(payload)", input) }
        case .rstStream:
            guard onStream, length == 4 else { fuzzFail("RST_STREAM on stream \(stream), \(length) bytes", input) }
            ended.insert(stream)
        case .data:
            guard onStream, !ended.contains(stream), length <= 16_777_215 else { fuzzFail("DATA on stream \(stream)", input) }
            if flags & HTTP2Flags.endStream != 0 { ended.insert(stream) }
        case .headers, .continuation:
            guard onStream, !ended.contains(stream) else { fuzzFail("\(kind) on stream \(stream)", input) }
            if kind == .headers {
                guard block == nil else { fuzzFail("HEADERS inside a header block", input) }
                block = (stream, [])
                if flags & HTTP2Flags.endStream != 0 { ended.insert(stream) }
            } else if block == nil {
                fuzzFail("CONTINUATION without HEADERS", input)
            }
            block!.bytes += payload
            if flags & HTTP2Flags.endHeaders != 0 {
                do throws(HPACKError) {
                    _ = try decoder.decode(block!.bytes)
                } catch {
                    fuzzFail("the server's header block does not decode: \(error)", input)
                }
                block = nil
            }
        case .priority, .pushPromise:
            fuzzFail("the server sent \(kind)", input)
        }
        first = false
    }
    guard block == nil else { fuzzFail("output ends inside a header block", input) }
}

/// Feeds the preface and `input` in the pieces `cuts` delimits, then answers what is ready.
private func run(_ input: [UInt8], cuts: [Int], limits: HTTPLimits) -> (ready: [String], output: [UInt8]) {
    let session = HTTP2Session(limits: limits, streamOpener: opener, now: 0)
    HTTP2Preface.bytes.withUnsafeBytes { session.receive($0, now: 0) }
    var ready: [(stream: UInt32, request: HTTPRequest)] = []
    var start = 0
    for end in cuts + [input.count] where end >= start {
        input[start ..< end].withUnsafeBytes { session.receive($0, now: 0) }
        start = end
        ready += session.ready
        session.ready = []
    }
    for (id, request) in ready {
        check(request, limits, input)
        answer(id, request, on: session)
    }
    session.closeIfDone()
    let described = ready.map {
        "\($0.stream) \($0.request.method) \($0.request.target) \($0.request.headers.fields.map { "\($0.name)=\($0.value)" }) \($0.request.body)"
    }
    return (described, session.output)
}

/// Feeds a byte at a time and answers each request as soon as it is ready.
private func runEagerly(_ input: [UInt8], limits: HTTPLimits) -> [UInt8] {
    let session = HTTP2Session(limits: limits, streamOpener: opener, now: 0)
    HTTP2Preface.bytes.withUnsafeBytes { session.receive($0, now: 0) }
    for index in input.indices {
        input[index ..< index + 1].withUnsafeBytes { session.receive($0, now: Int64(index)) }
        let ready = session.ready
        session.ready = []
        for (id, request) in ready {
            check(request, limits, input)
            answer(id, request, on: session)
        }
        if index == input.count / 2, fuzzHash(input) & 4 == 4 { session.goAway() }
    }
    return session.output
}

@_cdecl("LLVMFuzzerTestOneInput")
public func http2Fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    let hash = fuzzHash(input)
    let limits = limits(hash)
    let split = input.isEmpty ? 0 : Int((hash >> 8) % UInt64(input.count + 1))
    let whole = run(input, cuts: [], limits: limits)
    if fuzzShow {
        fuzzShowLine("limits \(limits), split at \(split): \(whole.ready.count) requests, \(whole.output.count) output bytes")
        for request in whole.ready { fuzzShowLine("  \(request)") }
    }
    checkFrames(whole.output, input)
    let halves = run(input, cuts: [split], limits: limits)
    guard halves.ready == whole.ready else { fuzzFail("split at \(split): requests \(halves.ready) instead of \(whole.ready)", input) }
    guard halves.output == whole.output else { fuzzFail("split at \(split): different output", input) }
    if input.count <= 2048 { checkFrames(runEagerly(input, limits: limits), input) }
    return 0
}
