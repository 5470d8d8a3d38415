
// From a header block to a request (RFC 9113 §8.1-§8.3): pseudo-header fields first, lowercase
// names, no connection-specific fields; `:authority` stands in for `Host`. A malformed request is
// a stream error (PROTOCOL_ERROR); a header list over the limit is answered 431.
extension HTTP2Session {
    /// The header block is whole: decode it (always, to keep HPACK's table in step) and act on it.
    func headerBlockEnded(now: Int64) {
        guard let block = headerBlock else { return }
        headerBlock = nil
        var fields: [HPACKHeader] = []
        var tooLarge = false
        do throws(HPACKError) {
            fields = try decoder.decode(block.bytes)
        } catch {
            guard error.isHeaderListTooLarge else { return fail(.compressionError, error.description) }
            tooLarge = true
        }
        if let stream = streams[block.stream] {  // trailers
            guard stream.isReceiving else { return reset(stream.id, .streamClosed) }  // half-closed (remote), §5.1
            guard block.endStream else { return reset(stream.id, .protocolError) }  // trailers end the request (§8.1)
            return endRequest(of: stream)
        }
        // A closed stream (its block was decoded all the same, for HPACK's sake), or a reused id.
        if block.stream <= highestStream { return lateFrame("HEADERS", on: block.stream) }
        if isGoingAway {  // a stream after GOAWAY's last is ignored (§6.8), and so are its frames
            highestIgnored = max(highestIgnored, block.stream)
            return
        }
        highestStream = block.stream
        guard streams.count < settings.maxConcurrentStreams else { return reset(block.stream, .refusedStream) }
        guard !block.selfDependent else { return reset(block.stream, .protocolError) }
        if tooLarge {
            let stream = open(block.stream, HTTPRequest(method: "GET", target: "/", version: .http2), maxBody: limits.maxBodyBytes, now: now,
                              endStream: block.endStream)
            if block.endStream { stream.receiving = .done }  // else the answer resets the stream (NO_ERROR)
            return respond(stream.id, with: Router.error(431, "request header fields over \(limits.maxHeaderBytes) bytes"))
        }
        guard let (request, declaredLength) = Self.request(from: fields) else {
            return reset(block.stream, .protocolError)
        }
        let body = limits.body(method: request.method, target: request.target)
        let stream = open(block.stream, request, maxBody: body.limit, now: now, endStream: block.endStream)
        stream.declaredLength = declaredLength
        if let opener = streamOpener, let handler = opener(request) {
            stream.receiving = .streamed(handler)
            stream.handler = handler
            if block.endStream { endRequest(of: stream) }
        } else if block.endStream {
            endRequest(of: stream)
        } else if let declaredLength, declaredLength > stream.maxBody {
            respond(stream.id, with: Router.error(413, "request body over \(stream.maxBody) bytes"))
        } else if body.spooled {
            do throws(HTTPParseError) {
                stream.spool = try SpoolFile(in: limits.spoolDirectory)
            } catch {
                respond(stream.id, with: Router.error(error.status, error.description))
            }
        }
    }

    private func open(_ id: UInt32, _ request: HTTPRequest, maxBody: Int, now: Int64, endStream: Bool) -> HTTP2Stream {
        let stream = HTTP2Stream(id: id, request: request, maxBody: maxBody,
                                 receiveWindow: settings.initialWindowSize, sendWindow: peerInitialWindow, now: now)
        streams[id] = stream
        return stream
    }

    /// The client's side of `stream` ended: hand the request over.
    func endRequest(of stream: HTTP2Stream) {
        let receiving = stream.receiving
        stream.receiving = .done
        switch receiving {
        case .streamed(let handler):
            handler.end(writer: writer(for: stream))
            if case .done = stream.answering, !stream.hasPendingOutput { close(stream, .ended) }
        case .body:
            bufferedBodyBytes -= stream.request.body.count
            reopenConnectionWindow()
            if let spool = stream.spool {
                stream.request.spooledBody = SpooledBody(file: spool, count: stream.spooled)
                stream.spool = nil
            }
            if let declared = stream.declaredLength, declared != stream.request.spooledBody?.count ?? stream.request.body.count {
                return reset(stream.id, .protocolError)  // §8.1.1: content-length must match the DATA
            }
            ready.append((stream.id, stream.request))
        case .done:
            if case .done = stream.answering, !stream.hasPendingOutput { close(stream, .ended) }
        }
    }

    /// The request a header list makes, and its declared `content-length`; nil when malformed.
    static func request(from fields: [HPACKHeader]) -> (HTTPRequest, Int?)? {
        var method: String?, path: String?, scheme: String?, authority: String?
        var headers = HTTPHeaders()
        var declaredLength: Int?
        var regular = false
        for field in fields {
            guard isValidValue(field.value) else { return nil }
            if field.name.utf8.first == UInt8(ascii: ":") {
                guard !regular else { return nil }
                switch field.name {
                case ":method" where method == nil: method = field.value
                case ":path" where path == nil: path = field.value
                case ":scheme" where scheme == nil: scheme = field.value
                case ":authority" where authority == nil: authority = field.value
                default: return nil  // unknown, response-only or repeated pseudo-header
                }
                continue
            }
            regular = true
            guard isValidName(field.name) else { return nil }
            switch field.name {
            case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade": return nil
            case "te" where field.value != "trailers": return nil
            case "content-length":
                guard let length = Int(field.value), length >= 0, declaredLength == nil || declaredLength == length else { return nil }
                declaredLength = length
            default: break
            }
            headers.add(field.name, field.value)
        }
        guard let method, !method.isEmpty, method.utf8.allSatisfy(\.isTokenByte), let path, scheme != nil else { return nil }
        // §8.3.1: an absolute path (a request target as HTTP/1.1's parser takes it), or `*` for OPTIONS.
        if path == "*" {
            guard method == "OPTIONS" else { return nil }
        } else {
            guard path.utf8.first == UInt8(ascii: "/"), path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        }
        if let authority, !headers.contains("host") { headers.add("host", authority) }
        return (HTTPRequest(method: method, target: path, version: .http2, headers: headers), declaredLength)
    }

    /// A field value without NUL, CR or LF, and without whitespace at either end (§8.2.1).
    private static func isValidValue(_ value: String) -> Bool {
        let bytes = value.utf8
        if let first = bytes.first, first == .space || first == .tab { return false }
        if let last = bytes.last, last == .space || last == .tab { return false }
        return !bytes.contains { $0 == 0 || $0 == .cr || $0 == .lf }
    }

    /// A field name: token characters, none of them uppercase (§8.2.1).
    private static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { $0.isTokenByte && !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
    }
}
