import Foundation

/// What a ``WebSocketServer``'s plain-HTTP side has done to protect itself, and how close it came
/// to its limits. A snapshot; read it through ``WebSocketServer/statistics``.
public struct WebSocketServerStatistics: Sendable, Equatable {
    /// Connections open now that have not (yet) become WebSocket connections.
    public var httpConnections = 0
    /// The most HTTP connections open at once.
    public var peakHTTPConnections = 0
    /// Times the server stopped accepting because `maxHTTPConnections` were open (new connections
    /// then wait in the kernel's backlog until a slot frees up).
    public var acceptPausesAtCap = 0
    /// Request body bytes being read or handled now (reserved from each head's Content-Length).
    public var bufferedRequestBytes = 0
    /// The most request body bytes reserved at once.
    public var peakBufferedRequestBytes = 0
    /// Requests answered from their head alone, before any body byte was read (413, 411, 503,
    /// or the `onRequestHead` handler's own answer).
    public var requestsAnsweredFromHead = 0
    /// HTTP connections closed because their unread responses exceeded `maxHTTPOutboundBytes`.
    public var slowHTTPReadersClosed = 0
    /// The most response bytes ever left unwritten on one HTTP connection after queuing a response.
    public var peakQueuedHTTPResponseBytes = 0
    /// Times a WebSocket connection stopped being read because `maxInboundBytesInFlight` of its
    /// messages were still waiting for the queue.
    public var inboundThrottles = 0

    /// All zero.
    public init() {}
}

/// The counters behind ``WebSocketServer/statistics``: written on the loop thread, read anywhere.
final class ServerCounters: @unchecked Sendable {
    private let lock = NSLock()
    private var value = WebSocketServerStatistics()

    var snapshot: WebSocketServerStatistics {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    @discardableResult
    func update<T>(_ body: (inout WebSocketServerStatistics) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }

    /// Reserves `bytes` of the server's request-body budget; false (nothing reserved) when the
    /// reservation would go over `limit`.
    func reserveBody(_ bytes: Int, limit: Int) -> Bool {
        update { s in
            guard bytes <= limit - s.bufferedRequestBytes else { return false }
            s.bufferedRequestBytes += bytes
            s.peakBufferedRequestBytes = max(s.peakBufferedRequestBytes, s.bufferedRequestBytes)
            return true
        }
    }

    /// Gives back a reservation of ``reserveBody(_:limit:)``.
    func releaseBody(_ bytes: Int) {
        guard bytes > 0 else { return }
        update { $0.bufferedRequestBytes -= bytes }
    }
}
