import Foundation

/// Keeps one server connection from reading further ahead of the server's event queue than a
/// budget of bytes: a peer that writes faster than the application handles its messages (a
/// flood) is read no faster than its messages are consumed, so it cannot fill the one queue all
/// connections share and starve the others.
///
/// Sits between the `SocketChannel` and the `WebSocketSession`. Each read is passed to the
/// session (which parses it and hands the batch of events to the queue), then counted as in
/// flight until a marker queued behind that batch comes back to the loop. Over the budget, the
/// channel stops reading; it reads again once half the budget has been consumed. Loop thread only.
final class InboundFlow: ChannelDelegate, @unchecked Sendable {
    private let session: WebSocketSession
    private let queue: DispatchQueue
    private let limit: Int
    private let counters: ServerCounters
    private var inFlight = 0
    private var throttled = false
    /// Reading was stopped for good (a silenced connection): never resume it.
    private var held = false

    init(session: WebSocketSession, queue: DispatchQueue, limit: Int, counters: ServerCounters) {
        self.session = session
        self.queue = queue
        self.limit = limit
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
    func channelClosed(_ channel: SocketChannel, error: WebSocketError?) { session.channelClosed(channel, error: error) }

    func channelRead(_ channel: SocketChannel, _ bytes: UnsafeRawBufferPointer) {
        session.channelRead(channel, bytes)
        let count = bytes.count
        inFlight += count
        let loop = session.loop
        // Queued after the events of this read: when it runs, they have been handled.
        queue.async { [weak self] in loop.execute { self?.consumed(count) } }
        if inFlight > limit, !throttled {
            throttled = true
            channel.setReading(false)
            counters.update { $0.inboundThrottles += 1 }
        }
    }

    private func consumed(_ count: Int) {
        inFlight -= count
        guard throttled, inFlight <= limit / 2 else { return }
        throttled = false
        if !held { session.channel.setReading(true) }
    }
}
