import Foundation

/// One accepted WebSocket connection of a `WebSocketServer`. Sends are thread-safe; events are
/// delivered on the server's queue, in order.
public final class WebSocketServerConnection: @unchecked Sendable {
    /// A server-unique identifier.
    public let id: Int
    /// The peer's address, e.g. `127.0.0.1:54321`.
    public let remoteAddress: String
    /// The upgrade request.
    public let request: HTTPRequest

    private let lock = NSLock()
    private var handler: (@Sendable (WebSocketEvent) -> Void)?
    let session: WebSocketSession
    /// Reads no further ahead of the queue than the server allows (set before the session starts).
    var flow: InboundFlow? {
        get { lock.withLock { inboundFlow } }
        set { lock.withLock { inboundFlow = newValue } }
    }
    private var inboundFlow: InboundFlow?
    private let loop: EventLoop

    /// Receives this connection's events (on the server's queue). Set it in `onConnection`.
    public var onEvent: (@Sendable (WebSocketEvent) -> Void)? {
        get { lock.withLock { handler } }
        set { lock.withLock { handler = newValue } }
    }

    init(
        id: Int, request: HTTPRequest, loop: EventLoop, makeSession: (EventSink) -> WebSocketSession,
        queue: DispatchQueue
    ) {
        self.id = id
        self.remoteAddress = request.remoteAddress
        self.request = request
        self.loop = loop
        // The sink reads the handler at delivery time. The box keeps the connection alive while
        // it is open (the caller need not retain it) and lets it go once `.closed` is delivered.
        let box = ConnectionBox()
        let sink = EventSink(queue: queue) { events in
            guard let connection = box.connection else { return }
            if let handler = connection.onEvent {
                for event in events { handler(event) }
            }
            if case .closed = events.last { box.connection = nil }
        }
        self.session = makeSession(sink)
        box.connection = self
    }

    /// Sends a text message (a connection over its outbound limit is dropped).
    public func send(text: String) {
        do {
            try session.submitText(text)
        } catch {
            dropIfOverLimit(error)
        }
    }

    /// Sends several text messages as separate frames in one socket write.
    public func send(texts: [String]) {
        var out: [UInt8] = []
        for text in texts { FrameEncoder.encode(opcode: .text, payload: text.utf8, mask: nil, into: &out) }
        if !out.isEmpty { submit(out) }
    }

    /// Sends a binary message.
    public func send(binary: [UInt8]) {
        submit(FrameEncoder.encodeFrame(.binary, binary, masked: false))
    }

    /// Sends one raw frame, unchecked (e.g. invalid UTF-8 as text, or a fragment): for tests of
    /// hostile servers.
    public func sendFrame(opcode: WebSocketOpcode, payload: [UInt8], fin: Bool = true) {
        submit(FrameEncoder.encodeFrame(opcode, payload, fin: fin, masked: false))
    }

    /// Sends a ping.
    public func ping(_ payload: [UInt8] = []) {
        submit(FrameEncoder.encodeFrame(.ping, Array(payload.prefix(125)), masked: false))
    }

    /// Starts the close handshake; `.closed` follows when the peer answers or after the timeout.
    public func close(code: UInt16, reason: String) {
        session.requestClose(code: code, reason: reason)
    }

    /// Closes TCP without a close frame; `.closed` (1006, initiated locally) follows.
    public func drop() {
        let session = self.session
        loop.execute { session.abort() }
    }

    /// Stops reading and answering (pongs are no longer sent): a silent edge.
    public func pauseReading() {
        let session = self.session
        let flow = self.flow
        loop.execute {
            session.pauseReading()
            flow?.hold()
        }
    }

    private func submit(_ bytes: [UInt8]) {
        do {
            try session.submit(bytes)
        } catch {
            dropIfOverLimit(error)
        }
    }

    private func dropIfOverLimit(_ error: WebSocketError) {
        if case .outboundBufferFull = error {
            let session = self.session
            loop.execute { session.abort(error: error) }
        }
    }
}

private final class ConnectionBox: @unchecked Sendable {
    var connection: WebSocketServerConnection?
}
