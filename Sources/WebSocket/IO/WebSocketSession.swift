import Foundation

/// An open WebSocket connection over a `SocketChannel`, for either role: parses and assembles
/// frames, answers pings, runs the close handshake and reports events through an `EventSink`.
///
/// Sending is thread-safe: frames are encoded on the caller's thread, appended to a bounded
/// pending buffer under a lock, and moved to the socket by one loop task per burst (so a burst of
/// small sends becomes one write). Everything else runs on the loop thread.
final class WebSocketSession: ChannelDelegate, @unchecked Sendable {
    enum State { case open, closingLocal, closed }

    let loop: EventLoop
    let channel: SocketChannel
    let isClient: Bool
    let closeTimeout: Duration
    let maxOutboundBytes: Int
    /// Called on the loop thread once the session is closed (server bookkeeping).
    var onTerminated: (() -> Void)?

    // Loop-thread state. The loop thread keeps accesses apart: what each message touches skips
    // Swift's dynamic exclusivity check (≈ 80 instructions per access).
    @exclusivity(unchecked) private var parser: FrameParser
    @exclusivity(unchecked) private var assembler: MessageAssembler
    private let sink: EventSink
    @exclusivity(unchecked) private var state: State = .open
    private var closeTimer: EventLoop.Timer?
    private var paused = false
    /// Reading stopped because the consumer is behind (the sink's credit is at its high-water
    /// mark); it resumes when the credit falls to its low-water mark.
    private var heldBack = false
    private var started = false

    // Shared send state (lock).
    private let lock = NSLock()
    private var pending: [UInt8] = []
    private var queuedBytes = 0
    private var flushScheduled = false
    /// Registered with the calling thread's `SendCoalescer`, which schedules the flush.
    private var coalesced = false
    private var sendsOpen = true
    private var closeRequested = false

    init(
        loop: EventLoop, channel: SocketChannel, isClient: Bool, maxMessageSize: Int, maxOutboundBytes: Int,
        closeTimeout: Duration, sink: EventSink
    ) {
        self.loop = loop
        self.channel = channel
        self.isClient = isClient
        self.closeTimeout = closeTimeout
        self.maxOutboundBytes = maxOutboundBytes
        self.sink = sink
        parser = FrameParser(role: isClient ? .client : .server, maxFrameSize: maxMessageSize)
        assembler = MessageAssembler(maxMessageSize: maxMessageSize)
        if let credit = sink.credit {
            sink.overHigh = { [weak self] in self?.holdBack() }
            credit.onLow { [weak self] in
                guard let self else { return }
                self.loop.execute { [weak self] in self?.resumeIfConsumed() }
            }
        }
    }

    // MARK: Loop-thread entry points

    /// Takes over the channel and processes bytes that arrived with the handshake.
    func start(leftover: [UInt8]) {
        started = true
        channel.delegate = self
        if !leftover.isEmpty { leftover.withUnsafeBytes { process($0) } }
        sink.flush()
        if state == .open || state == .closingLocal { drainPending() }
    }

    func channelActive(_ channel: SocketChannel) {}

    func channelRead(_ channel: SocketChannel, _ bytes: UnsafeRawBufferPointer) {
        process(bytes)
        sink.flush()
    }

    func channelWrote(_ channel: SocketChannel, count: Int) {
        lock.lock()
        queuedBytes -= count
        lock.unlock()
    }

    func channelClosed(_ channel: SocketChannel, error: WebSocketError?) {
        guard state != .closed else { return }
        let local = state == .closingLocal
        finish(WebSocketCloseInfo(code: 1006, reason: "", initiatedLocally: local, error: error))
    }

    /// Stops reading and answering pings (a silent peer).
    func pauseReading() {
        paused = true
        channel.setReading(false)
    }

    /// Stops reading until the consumer catches up (loop thread).
    private func holdBack() {
        guard state != .closed, !heldBack else { return }
        heldBack = true
        channel.setReading(false)
    }

    /// Reads again once the consumer has brought the credit down to its low-water mark (loop thread).
    private func resumeIfConsumed() {
        guard heldBack, state != .closed, sink.credit?.isLow ?? true else { return }
        heldBack = false
        if !paused { channel.setReading(true) }
    }

    /// Drops TCP without a close frame.
    func abort(error: WebSocketError? = nil) {
        guard state != .closed else { return }
        channel.close()
        finish(WebSocketCloseInfo(code: 1006, reason: "", initiatedLocally: true, error: error))
    }

    private func process(_ bytes: UnsafeRawBufferPointer) {
        guard state != .closed, !paused else { return }
        parser.append(bytes)
        do {
            while state != .closed {
                let frame: WebSocketFrame
                if assembler.isAssembling {
                    guard let next = try parser.next() else { break }
                    frame = next
                } else {
                    // Whole text messages straight from the receive buffer (the common case).
                    switch try parser.nextMessageOrFrame(maxMessageSize: assembler.maxMessageSize) {
                    case nil: return
                    case .text(let text)?:
                        sink.add(.text(text))
                        continue
                    case .frame(let next)?:
                        frame = next
                    }
                }
                guard let event = try assembler.push(frame) else { continue }
                switch event {
                case .ping(let payload):
                    if state == .open && !paused {
                        writeFromLoop(FrameEncoder.encodeFrame(.pong, payload, masked: isClient), closing: false)
                    }
                    sink.add(event)
                case .closed(let info):
                    handlePeerClose(info)
                default:
                    sink.add(event)
                }
            }
        } catch {
            failConnection(error)
        }
    }

    private func handlePeerClose(_ info: WebSocketCloseInfo) {
        switch state {
        case .open:
            let payload = info.code == 1005 ? [] : FrameEncoder.closePayload(code: info.code, reason: "")
            writeFromLoop(FrameEncoder.encodeFrame(.close, payload, masked: isClient), closing: true)
            channel.closeAfterFlush()
            finish(info)
        case .closingLocal:
            channel.closeAfterFlush()
            var local = info
            local.initiatedLocally = true
            finish(local)
        case .closed:
            break
        }
    }

    private func failConnection(_ error: WebSocketProtocolError) {
        guard state != .closed else { return }
        if state == .open {
            let payload = FrameEncoder.closePayload(code: error.closeCode, reason: error.description)
            writeFromLoop(FrameEncoder.encodeFrame(.close, payload, masked: isClient), closing: true)
        }
        channel.closeAfterFlush()
        finish(
            WebSocketCloseInfo(
                code: error.closeCode, reason: error.description, initiatedLocally: true,
                error: .protocolViolation(error)))
    }

    private func finish(_ info: WebSocketCloseInfo) {
        state = .closed
        closeTimer?.cancel()
        closeTimer = nil
        lock.lock()
        sendsOpen = false
        pending = []
        lock.unlock()
        sink.add(.closed(info))
        sink.flush()
        let terminated = onTerminated
        onTerminated = nil
        terminated?()
    }

    /// Writes a frame produced on the loop thread after whatever the user queued before it.
    private func writeFromLoop(_ frame: [UInt8], closing: Bool) {
        lock.lock()
        var data = pending
        pending = []
        queuedBytes += frame.count
        if closing { sendsOpen = false }
        lock.unlock()
        if data.isEmpty { data = frame } else { data.append(contentsOf: frame) }
        channel.write(data)
    }

    private func drainPending() {
        lock.lock()
        guard started else {
            flushScheduled = false
            lock.unlock()
            return
        }
        let data = pending
        pending = []
        flushScheduled = false
        let closing = closeRequested
        lock.unlock()
        guard state != .closed else { return }
        channel.write(data)
        if closing && state == .open {
            state = .closingLocal
            closeTimer = loop.schedule(after: closeTimeout) { [weak self] in
                guard let self, self.state == .closingLocal else { return }
                self.channel.close()
                self.finish(WebSocketCloseInfo(code: 1006, reason: "", initiatedLocally: true, error: .timeout))
            }
        }
    }

    // MARK: Any-thread sending

    /// Queues encoded frames; throws when closed or when the outbound buffer would overflow.
    func submit(_ bytes: [UInt8]) throws(WebSocketError) {
        lock.lock()
        guard sendsOpen else {
            lock.unlock()
            throw .notConnected
        }
        if queuedBytes + bytes.count > maxOutboundBytes && queuedBytes > 0 {
            lock.unlock()
            throw .outboundBufferFull(limit: maxOutboundBytes)
        }
        enqueueLocked(bytes)
    }

    /// Queues a close frame (after everything queued so far) and starts the close handshake.
    func requestClose(code: UInt16, reason: String) {
        lock.lock()
        guard sendsOpen else {
            lock.unlock()
            return
        }
        sendsOpen = false
        closeRequested = true
        // A code that may not appear on the wire (e.g. 1005, 1006) is sent as "no status".
        let payload =
            MessageAssembler.isValidWireCloseCode(code) ? FrameEncoder.closePayload(code: code, reason: reason) : []
        enqueueLocked(FrameEncoder.encodeFrame(.close, payload, masked: isClient))
    }

    /// Queues one unmasked text frame holding `text`, encoded straight into the pending buffer
    /// (server side: no intermediate arrays). Throws like ``submit(_:)``.
    func submitText(_ text: String) throws(WebSocketError) {
        precondition(!isClient, "client frames are masked: use submit(_:)")
        let count = text.utf8.count
        let headerCount = count < 126 ? 2 : count <= 0xFFFF ? 4 : 10
        lock.lock()
        guard sendsOpen else {
            lock.unlock()
            throw .notConnected
        }
        if queuedBytes + headerCount + count > maxOutboundBytes && queuedBytes > 0 {
            lock.unlock()
            throw .outboundBufferFull(limit: maxOutboundBytes)
        }
        queuedBytes += headerCount + count
        pending.append(0x80 | WebSocketOpcode.text.rawValue)
        if count < 126 {
            pending.append(UInt8(count))
        } else if count <= 0xFFFF {
            pending.append(126)
            pending.append(UInt8(count >> 8))
            pending.append(UInt8(count & 0xFF))
        } else {
            pending.append(127)
            for shift in stride(from: 56, through: 0, by: -8) {
                pending.append(UInt8((UInt64(count) >> UInt64(shift)) & 0xFF))
            }
        }
        pending.append(contentsOf: text.utf8)
        scheduleFlushLocked()
    }

    /// Must be called with the lock held; releases it.
    private func enqueueLocked(_ bytes: [UInt8]) {
        queuedBytes += bytes.count
        if pending.isEmpty { pending = bytes } else { pending.append(contentsOf: bytes) }
        scheduleFlushLocked()
    }

    /// Schedules one loop task to write what is pending, unless one is scheduled already or the
    /// calling thread is coalescing sends (then the coalescer schedules it when it ends).
    /// Must be called with the lock held; releases it.
    private func scheduleFlushLocked() {
        if flushScheduled {
            lock.unlock()
            return
        }
        if let coalescer = SendCoalescer.current {
            let register = !coalesced
            coalesced = true
            lock.unlock()
            if register { coalescer.add(self) }
            return
        }
        flushScheduled = true
        lock.unlock()
        loop.execute { self.drainPending() }
    }

    /// Called by a `SendCoalescer` when its thread stops coalescing: returns whether a flush is
    /// now due (the caller runs ``drainPending()`` on the loop).
    func endCoalescing() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        coalesced = false
        if flushScheduled || pending.isEmpty { return false }
        flushScheduled = true
        return true
    }

    /// Writes what is pending (loop thread).
    func flushPendingFromCoalescer() {
        drainPending()
    }
}
