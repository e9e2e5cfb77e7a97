import Foundation

/// Keeps one server connection from getting further ahead of the server's event queue than a
/// budget of bytes: a peer that writes faster than the application handles its messages (a
/// flood) is served no faster than its messages are consumed, so it cannot fill the one queue
/// all connections share and starve the others.
///
/// Sits between the `SocketChannel` and the `WebSocketSession`. Bytes go to the session (which
/// parses them and hands the batch of events to the queue) at most `limit` at a time; each slice
/// counts as in flight until a marker queued behind its events comes back to the loop. What a
/// read brought beyond the budget waits here (at most one read) and the channel stops reading;
/// once half the budget has been consumed, the waiting bytes go on and reading resumes.
/// Loop thread only.
final class InboundFlow: ChannelDelegate, @unchecked Sendable {
    private let session: WebSocketSession
    private let queue: DispatchQueue
    private let limit: Int
    private let counters: ServerCounters
    private var inFlight = 0
    /// Read but not yet given to the session.
    private var waiting: [UInt8] = []
    private var throttled = false
    /// Reading was stopped for good (a silenced connection): never resume it.
    private var held = false

    init(session: WebSocketSession, queue: DispatchQueue, limit: Int, counters: ServerCounters) {
        self.session = session
        self.queue = queue
        self.limit = max(1, limit)
        self.counters = counters
    }

    /// Puts the flow between the channel and the session (after `session.start`).
    func attach() {
        session.channel.delegate = self
    }

    /// The session stopped reading for good (`pauseReading`).
    func hold() {
        held = true
    }

    func channelActive(_ channel: SocketChannel) { session.channelActive(channel) }
    func channelWrote(_ channel: SocketChannel, count: Int) { session.channelWrote(channel, count: count) }

    func channelClosed(_ channel: SocketChannel, error: WebSocketError?) {
        // What the peer sent before it closed still counts (a last message, its close frame).
        if !waiting.isEmpty {
            let rest = waiting
            waiting = []
            rest.withUnsafeBytes { session.channelRead(channel, $0) }
        }
        session.channelClosed(channel, error: error)
    }

    func channelRead(_ channel: SocketChannel, _ bytes: UnsafeRawBufferPointer) {
        if !waiting.isEmpty {
            waiting.append(contentsOf: bytes)
            return
        }
        let room = max(0, limit - inFlight)
        if bytes.count <= room {
            forward(bytes)
            return
        }
        if room > 0 { forward(UnsafeRawBufferPointer(rebasing: bytes[0..<room])) }
        waiting.append(contentsOf: bytes[room...])
        if !throttled {
            throttled = true
            channel.setReading(false)
            counters.update { $0.inboundThrottles += 1 }
        }
    }

    private func forward(_ bytes: UnsafeRawBufferPointer) {
        session.channelRead(session.channel, bytes)
        let count = bytes.count
        inFlight += count
        let loop = session.loop
        // Queued after the events of these bytes: when it runs, they have been handled.
        queue.async { [weak self] in loop.execute { self?.consumed(count) } }
    }

    private func consumed(_ count: Int) {
        inFlight -= count
        guard throttled, inFlight <= limit / 2 else { return }
        if !waiting.isEmpty {
            let take = min(waiting.count, limit - inFlight)
            let slice = Array(waiting[0..<take])
            waiting.removeSubrange(0..<take)
            slice.withUnsafeBytes { forward($0) }
            if !waiting.isEmpty { return }
        }
        throttled = false
        if !held { session.channel.setReading(true) }
    }
}
