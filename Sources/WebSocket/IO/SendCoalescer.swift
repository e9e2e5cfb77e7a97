#if canImport(Glibc)
    import Glibc
#endif

/// Holds back the loop wake-ups of the sends one thread makes while it runs a body of code
/// (``WebSocketServer/coalescingSends(_:)``): frames still join each connection's pending buffer
/// at once (limits and ordering unchanged), but the write is scheduled when the body ends, so a
/// burst of messages costs one loop task and one socket write per connection instead of many.
final class SendCoalescer {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The calling thread's coalescer, while it runs one.
    static var current: SendCoalescer? {
        guard let raw = pthread_getspecific(key) else { return nil }
        return Unmanaged<SendCoalescer>.fromOpaque(raw).takeUnretainedValue()
    }

    private var sessions: [WebSocketSession] = []

    /// Notes a session that queued frames without scheduling their write.
    func add(_ session: WebSocketSession) {
        sessions.append(session)
    }

    /// Runs `body` with sends coalesced on this thread (nested calls join the outer one).
    static func run<T>(_ body: () throws -> T) rethrows -> T {
        if current != nil { return try body() }
        let coalescer = SendCoalescer()
        pthread_setspecific(key, Unmanaged.passUnretained(coalescer).toOpaque())
        defer {
            pthread_setspecific(key, nil)
            coalescer.finish()
        }
        return try withExtendedLifetime(coalescer) { try body() }
    }

    /// Schedules the writes held back: one loop task per event loop.
    private func finish() {
        var due: [ObjectIdentifier: (loop: EventLoop, sessions: [WebSocketSession])] = [:]
        for session in sessions where session.endCoalescing() {
            due[ObjectIdentifier(session.loop), default: (session.loop, [])].sessions.append(session)
        }
        sessions = []
        for (_, entry) in due {
            let sessions = entry.sessions
            entry.loop.execute {
                for session in sessions { session.flushPendingFromCoalescer() }
            }
        }
    }
}

extension WebSocketServer {
    /// Runs `body` and writes the messages it sends from this thread (to any connection of any
    /// server) together when it returns: one event-loop wake-up and one socket write per
    /// connection instead of one per message. Frames are queued at once, in order, and count
    /// against `maxOutboundBytes` as usual; only the write waits for the end of `body`. Keep
    /// `body` short (e.g. one chunk of a burst). Nested calls join the outermost one.
    public static func coalescingSends<T>(_ body: () throws -> T) rethrows -> T {
        try SendCoalescer.run(body)
    }
}
