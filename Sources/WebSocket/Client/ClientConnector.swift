import Foundation

/// Drives one client connection from DNS to an open `WebSocketSession`: TCP connect (each
/// address in turn), TLS, the upgrade request and the validation of the 101 answer, all under
/// the connect timeout. Loop thread only, except `resolveAndStart`.
final class ClientConnector: ChannelDelegate, @unchecked Sendable {
    struct Target: Sendable {
        var host: String
        var port: Int
        var secure: Bool
        var requestTarget: String
        var hostHeader: String
    }

    let loop: EventLoop
    let target: Target
    let configuration: WebSocketClient.Configuration
    let sink: EventSink
    /// Called on the loop thread when the session opens (before `.opened` is delivered).
    var onOpen: ((WebSocketSession) -> Void)?

    private var channel: SocketChannel?
    private(set) var session: WebSocketSession?
    private var timer: EventLoop.Timer?
    private var done = false
    private var key = ""
    private var buffer: [UInt8] = []

    init(loop: EventLoop, target: Target, configuration: WebSocketClient.Configuration, sink: EventSink) {
        self.loop = loop
        self.target = target
        self.configuration = configuration
        self.sink = sink
    }

    /// Starts the timeout, resolves off the loop and connects.
    func begin() {
        loop.execute {
            self.timer = self.loop.schedule(after: self.configuration.connectTimeout) { [weak self] in
                guard let self else { return }
                self.fail(.connectTimeout(host: self.target.host, port: self.target.port), local: false)
            }
        }
        let host = target.host
        let port = target.port
        DispatchQueue.global().async {
            let result = SocketAddress.resolve(host: host, port: port)
            self.loop.execute { self.resolved(result) }
        }
    }

    private func resolved(_ result: Result<[SocketAddress], WebSocketError>) {
        guard !done else { return }
        switch result {
        case .failure(let error):
            fail(error, local: false)
        case .success(let addresses):
            var tls: TLSContext?
            if target.secure {
                switch TLSContext.client(caFile: configuration.caFile, host: target.host) {
                case .success(let ctx): tls = ctx
                case .failure(let error):
                    fail(error, local: false)
                    return
                }
            }
            let channel = SocketChannel(
                loop: loop, connectingTo: addresses, host: target.host, port: target.port,
                tlsContext: tls, delegate: self)
            self.channel = channel
            channel.start()
        }
    }

    /// The user closed or aborted before (or just as) the session opened.
    func cancel(closeCode: UInt16?, reason: String) {
        if let session {
            if let code = closeCode { session.requestClose(code: code, reason: reason) } else { session.abort() }
            return
        }
        fail(nil, local: true)
    }

    private func fail(_ error: WebSocketError?, local: Bool) {
        guard !done else { return }
        done = true
        timer?.cancel()
        channel?.close()
        channel = nil
        sink.add(.closed(WebSocketCloseInfo(code: 1006, reason: "", initiatedLocally: local, error: error)))
        sink.flush()
    }

    // MARK: ChannelDelegate

    func channelActive(_ channel: SocketChannel) {
        key = Handshake.randomKey()
        var request = "GET \(target.requestTarget) HTTP/1.1\r\nHost: \(target.hostHeader)\r\n"
        request +=
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in configuration.headers.sorted(by: { $0.key < $1.key }) {
            guard !name.contains("\r"), !name.contains("\n"), !value.contains("\r"), !value.contains("\n") else {
                continue
            }
            request += "\(name): \(value)\r\n"
        }
        request += "\r\n"
        channel.write(Array(request.utf8))
    }

    func channelRead(_ channel: SocketChannel, _ bytes: UnsafeRawBufferPointer) {
        guard !done else { return }
        buffer.append(contentsOf: bytes)
        guard let end = HTTPHead.findEnd(buffer) else {
            if buffer.count > 64 * 1024 { fail(.handshakeInvalid("response head too large"), local: false) }
            return
        }
        guard let head = HTTPHead.parse(buffer[0..<end]) else {
            fail(.handshakeInvalid("malformed HTTP response"), local: false)
            return
        }
        guard let status = ResponseNumbers.status(ofStatusLine: head.startLine) else {
            fail(.handshakeInvalid("malformed status line"), local: false)
            return
        }
        guard status == 101 else {
            fail(.handshakeRejected(status: status, statusLine: head.startLine), local: false)
            return
        }
        guard head.headers.contains(name: "Upgrade", token: "websocket") else {
            fail(.handshakeInvalid("missing Upgrade: websocket"), local: false)
            return
        }
        guard head.headers.contains(name: "Connection", token: "upgrade") else {
            fail(.handshakeInvalid("missing Connection: Upgrade"), local: false)
            return
        }
        guard
            head.headers["Sec-WebSocket-Accept"]?.trimmingCharacters(in: .whitespaces)
                == Handshake.acceptValue(forKey: key)
        else {
            fail(.handshakeInvalid("Sec-WebSocket-Accept does not match"), local: false)
            return
        }
        if let ext = head.headers["Sec-WebSocket-Extensions"], !ext.isEmpty {
            fail(.handshakeInvalid("unrequested extension \(ext)"), local: false)
            return
        }
        done = true
        timer?.cancel()
        let session = WebSocketSession(
            loop: loop, channel: channel, isClient: true,
            maxMessageSize: configuration.maxMessageSize,
            maxOutboundBytes: configuration.maxOutboundBytes,
            closeTimeout: configuration.closeTimeout, sink: sink)
        self.session = session
        self.channel = nil
        onOpen?(session)
        sink.add(.opened)
        session.start(leftover: Array(buffer[end...]))
        buffer = []
    }

    func channelWrote(_ channel: SocketChannel, count: Int) {}

    func channelClosed(_ channel: SocketChannel, error: WebSocketError?) {
        self.channel = nil
        fail(error ?? .handshakeInvalid("connection closed during the opening handshake"), local: false)
    }
}
