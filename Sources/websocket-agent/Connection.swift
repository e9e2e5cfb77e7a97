import Dispatch
import Foundation
import WebSocket

/// One client connection run to its end from the main thread: events arrive on a private serial
/// queue and go to `handler`, which may answer through the `Connection.Reply` it is given.
/// `wait` blocks until `.closed` (or the deadline, after which the connection is aborted).
final class Connection: Sendable {
    private let state: State
    private let client: WebSocketClient

    /// What a handler may do in answer to an event.
    typealias Reply = State

    /// Creates the connection (not yet connected); `handler` sees every event, in order.
    init(url: URL, handler: @escaping @Sendable (WebSocketEvent, Reply) -> Void) {
        let state = State()
        // The event closure holds `state` strongly and touches the client only to answer: no weak
        // reference and no extra retain of the client on the per-message path (this is measured
        // by the receive benchmark). The cycle client -> closure -> state -> client is cut when
        // `.closed` arrives.
        let client = WebSocketClient(
            configuration: .init(url: url), queue: DispatchQueue(label: "websocket-agent.connection")
        ) { event in
            handler(event, state)
            if case .closed(let info) = event { state.finish(info) }
        }
        state.client = client
        self.state = state
        self.client = client
    }

    /// Opens the connection.
    func connect() {
        client.connect()
    }

    /// Waits for the end of the connection; after `timeout` seconds aborts it and returns nil.
    func wait(timeout: TimeInterval) -> WebSocketCloseInfo? {
        if state.done.wait(timeout: .now() + timeout) == .timedOut {
            client.abort()
            _ = state.done.wait(timeout: .now() + 5)
            return nil
        }
        return state.closeInfo
    }

    /// The connection's shared state, and the handler's way to answer.
    final class State: @unchecked Sendable {
        // @unchecked: `client` is set before connect() and then used only on the connection's
        // serial event queue; `info` is guarded by `lock`.
        fileprivate var client: WebSocketClient?
        fileprivate let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var info: WebSocketCloseInfo?

        fileprivate var closeInfo: WebSocketCloseInfo? { lock.withLock { info } }

        /// Sends a text message (errors such as "not connected" are ignored: the peer decides).
        func send(text: String) { try? client?.send(text: text) }

        /// Sends a binary message (errors ignored, as for text).
        func send(binary: [UInt8]) { try? client?.send(binary: binary) }

        /// Starts the close handshake.
        func close(code: UInt16) { client?.close(code: code, reason: "") }

        fileprivate func finish(_ closeInfo: WebSocketCloseInfo) {
            lock.withLock { info = closeInfo }
            client = nil
            done.signal()
        }
    }
}

extension WebSocketCloseInfo {
    /// "1000 'reason'" plus the error, for logs.
    var summary: String {
        var text = "\(code)"
        if !reason.isEmpty { text += " '\(reason)'" }
        if let error { text += " (\(error))" }
        return text
    }
}
