import Foundation

/// An accepted connection before (or instead of) a WebSocket upgrade: reads HTTP/1.1 requests,
/// hands plain requests to the server's HTTP handler (keep-alive, one request at a time) and
/// validates upgrade requests. Loop thread only.
///
/// Nothing a peer sends is buffered beyond the server's limits: a head over 32 KiB is answered
/// 431, and a body is read only after its head was accepted (``WebSocketServer/onRequestHead``),
/// its Content-Length fits the route's limit and the server's body budget had room for it.
final class ServerHTTPConnection: ChannelDelegate, @unchecked Sendable {
    private enum State {
        case readingHead
        /// The request as its head gave it (body still empty), its HTTP version, the body length.
        case readingBody(HTTPRequest, String, Int)
        case waiting
        case done
    }

    /// The limits this connection enforces (from the server's configuration).
    struct Limits {
        /// The largest body any route accepts.
        var maxRequestBodySize: Int
        /// Body bytes all of the server's connections may hold at once.
        var maxBufferedRequestBytes: Int
        /// Unwritten response bytes after which the connection is closed as not reading.
        var maxOutboundBytes: Int
    }

    let id: Int
    let channel: SocketChannel
    let remoteAddress: String
    private weak var server: WebSocketServer?
    private let limits: Limits
    private let counters: ServerCounters
    private var buffer: [UInt8] = []
    private var state: State = .readingHead
    private var scanFrom = 0
    /// Bytes of the server's body budget held by the request being read or handled.
    private var reservedBodyBytes = 0
    private var idleTimer: EventLoop.Timer?
    /// Called once when this connection leaves HTTP handling (closed or upgraded).
    var onDone: (() -> Void)?

    /// The largest request head (request line and header fields) accepted: larger → 431.
    static let maxHeadSize = 32 * 1024
    /// How long a connection may sit without delivering a complete request.
    static let idleTimeout: Duration = .seconds(60)

    init(
        id: Int, channel: SocketChannel, remoteAddress: String, server: WebSocketServer, limits: Limits,
        counters: ServerCounters
    ) {
        self.id = id
        self.channel = channel
        self.remoteAddress = remoteAddress
        self.server = server
        self.limits = limits
        self.counters = counters
    }

    func channelActive(_ channel: SocketChannel) {}
    func channelWrote(_ channel: SocketChannel, count: Int) {}

    func channelClosed(_ channel: SocketChannel, error: WebSocketError?) {
        finish()
    }

    func channelRead(_ channel: SocketChannel, _ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        process()
    }

    /// Closes the connection if no complete request arrives in time (slow or idle clients).
    func armIdleTimer() {
        idleTimer?.cancel()
        idleTimer = channel.loop.schedule(after: Self.idleTimeout) { [weak self] in
            guard let self else { return }
            switch self.state {
            case .readingHead, .readingBody:
                self.channel.close()
                self.finish()
            case .waiting, .done:
                break
            }
        }
    }

    private func finish() {
        if case .done = state { return }
        idleTimer?.cancel()
        idleTimer = nil
        state = .done
        buffer = []
        releaseBody()
        let done = onDone
        onDone = nil
        done?()
    }

    private func releaseBody() {
        counters.releaseBody(reservedBodyBytes)
        reservedBodyBytes = 0
    }

    /// Closes the connection after writing `response`.
    private func respondAndClose(_ response: HTTPResponse) {
        channel.write(response.serialized(keepAlive: false))
        channel.closeAfterFlush()
        finish()
    }

    /// Answers from the head alone (the body, if any, is never read) and closes.
    private func refuseFromHead(_ response: HTTPResponse) {
        counters.update { $0.requestsAnsweredFromHead += 1 }
        respondAndClose(response)
    }

    private func process() {
        while true {
            switch state {
            case .readingHead:
                guard let end = HTTPHead.findEnd(buffer, from: max(0, scanFrom - 3)) else {
                    scanFrom = buffer.count
                    if buffer.count > Self.maxHeadSize { respondAndClose(.text(431, "request head too large\n")) }
                    return
                }
                scanFrom = 0
                // The limit holds however the head arrived, also in a single read.
                guard end <= Self.maxHeadSize else {
                    respondAndClose(.text(431, "request head too large\n"))
                    return
                }
                guard let head = HTTPHead.parse(buffer[0..<end]) else {
                    respondAndClose(.text(400, "malformed request\n"))
                    return
                }
                buffer.removeSubrange(0..<end)
                let parts = head.startLine.split(separator: " ")
                guard parts.count == 3, parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
                    respondAndClose(.text(400, "malformed request line\n"))
                    return
                }
                let length: Int
                switch HTTPHead.bodyFraming(head.headers) {
                case .none: length = 0
                case .length(let n): length = n
                case .transferEncoded:
                    refuseFromHead(
                        .text(411, "send the body with Content-Length (chunked request bodies are not supported)\n"))
                    return
                case .invalid(let problem):
                    refuseFromHead(.text(400, problem + "\n"))
                    return
                }
                guard let server else {
                    channel.close()
                    finish()
                    return
                }
                let request = HTTPRequest(
                    method: String(parts[0]), target: String(parts[1]), headers: head.headers,
                    remoteAddress: remoteAddress)
                let maxBody: Int
                switch server.decide(head: request) {
                case .respond(let response):
                    refuseFromHead(response)
                    return
                case .readBody(let routeLimit):
                    maxBody = min(max(0, routeLimit), limits.maxRequestBodySize)
                }
                if length > maxBody {
                    refuseFromHead(.text(413, "request body too large (at most \(maxBody) bytes here)\n"))
                    return
                }
                if length > 0 {
                    guard counters.reserveBody(length, limit: limits.maxBufferedRequestBytes) else {
                        var busy = HTTPResponse.text(503, "too many request bodies in flight; retry shortly\n")
                        busy.headers.add(name: "Retry-After", value: "1")
                        refuseFromHead(busy)
                        return
                    }
                    reservedBodyBytes = length
                }
                state = .readingBody(request, String(parts[2]), length)
            case .readingBody(var request, let version, let length):
                guard buffer.count >= length else { return }
                request.body = Array(buffer[0..<length])
                buffer.removeSubrange(0..<length)
                dispatch(request, version: version)
                return
            case .waiting, .done:
                return
            }
        }
    }

    private func dispatch(_ request: HTTPRequest, version: String) {
        state = .waiting
        channel.setReading(false)
        if request.headers.contains(name: "Upgrade", token: "websocket") || request.headers["Sec-WebSocket-Key"] != nil
        {
            if let problem = Self.upgradeProblem(request) {
                var response = HTTPResponse.text(400, problem + "\n")
                response.headers.add(name: "Sec-WebSocket-Version", value: "13")
                respondAndClose(response)
                return
            }
            let leftover = buffer
            buffer = []
            releaseBody()
            guard let server else { return }
            server.handleUpgrade(request: request, from: self, leftover: leftover)
            return
        }
        let keepAlive: Bool
        if version == "HTTP/1.0" {
            keepAlive = request.headers.contains(name: "Connection", token: "keep-alive")
        } else {
            keepAlive = !request.headers.contains(name: "Connection", token: "close")
        }
        server?.handleHTTP(request: request) { [weak self] response in
            self?.respond(response, keepAlive: keepAlive)
        }
    }

    /// Writes the handler's response (loop thread).
    private func respond(_ response: HTTPResponse, keepAlive: Bool) {
        guard case .waiting = state else { return }
        releaseBody()
        // A peer that keeps asking but never reads (pipelined requests to a socket it does not
        // drain) would make responses pile up here without bound.
        if channel.queuedByteCount > limits.maxOutboundBytes {
            counters.update { $0.slowHTTPReadersClosed += 1 }
            channel.close()
            finish()
            return
        }
        if !keepAlive {
            respondAndClose(response)
            return
        }
        channel.write(response.serialized(keepAlive: true))
        let queued = channel.queuedByteCount
        counters.update { $0.peakQueuedHTTPResponseBytes = max($0.peakQueuedHTTPResponseBytes, queued) }
        state = .readingHead
        armIdleTimer()
        channel.setReading(true)
        process()
    }

    /// Writes a refusal of an upgrade (loop thread).
    func refuseUpgrade(_ response: HTTPResponse) {
        respondAndClose(response)
    }

    /// Closes the connection at once (server stopping; loop thread).
    func shutDown() {
        channel.close()
        finish()
    }

    /// Hands the channel to a WebSocket session (loop thread).
    func upgraded() {
        channel.setReading(true)
        finish()
    }

    /// Why an upgrade request is invalid, or nil when it is valid.
    static func upgradeProblem(_ request: HTTPRequest) -> String? {
        if request.method != "GET" { return "WebSocket upgrade requires GET" }
        if !request.headers.contains(name: "Upgrade", token: "websocket") { return "missing Upgrade: websocket" }
        if !request.headers.contains(name: "Connection", token: "upgrade") { return "missing Connection: Upgrade" }
        if request.headers["Sec-WebSocket-Version"]?.trimmingCharacters(in: .whitespaces) != "13" {
            return "unsupported Sec-WebSocket-Version (13 required)"
        }
        guard let key = request.headers["Sec-WebSocket-Key"]?.trimmingCharacters(in: .whitespaces),
            Handshake.isValidKey(key)
        else {
            return "missing or invalid Sec-WebSocket-Key"
        }
        return nil
    }
}
