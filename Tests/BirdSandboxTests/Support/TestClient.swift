import BirdWire
import Dispatch
import Foundation
import WebSocket

/// Events recorded under a lock.
final class EventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [WebSocketEvent] = []

    func append(_ event: WebSocketEvent) {
        lock.lock()
        list.append(event)
        lock.unlock()
    }

    func withLock<T>(_ body: ([WebSocketEvent]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(list)
    }
}

/// A small WebSocket test client that records events and waits for them with a deadline.
final class TestClient: Sendable {
    private let events = EventRecorder()
    private let socket: WebSocketClient
    let url: URL

    init(_ url: String, caFile: String? = nil) {
        self.url = URL(string: url) ?? URL(fileURLWithPath: "/")
        let events = self.events
        socket = WebSocketClient(
            configuration: .init(url: self.url, connectTimeout: .seconds(5), caFile: caFile),
            queue: DispatchQueue(label: "test-client")
        ) { event in events.append(event) }
        socket.connect()
    }

    /// Protocol messages received so far.
    var messages: [WireMessage] {
        events.withLock { list in
            list.compactMap { if case .text(let t) = $0 { return try? WireMessage.decode(t) } else { return nil } }
        }
    }

    /// How the connection closed, if it did.
    var closeInfo: WebSocketCloseInfo? {
        events.withLock { list in
            for case .closed(let info) in list { return info }
            return nil
        }
    }

    func send(_ event: String, channel: String? = nil, data: JSONValue? = nil) {
        let message = WireMessage(event: event, channel: channel, data: data.map { .json($0.description) })
        try? socket.send(text: message.encode())
    }

    func sendRaw(_ text: String) { try? socket.send(text: text) }

    func close() { socket.close() }

    /// Waits until `condition` holds (polling), up to `seconds`.
    @discardableResult
    func wait(_ seconds: Double = 10, until condition: (TestClient) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(self)
    }

    /// Waits for a message named `event` (on `channel` when given).
    func waitFor(_ event: String, channel: String? = nil, seconds: Double = 10) async -> WireMessage? {
        await wait(seconds) { $0.messages.contains { $0.event == event && (channel == nil || $0.channel == channel) } }
        return messages.first { $0.event == event && (channel == nil || $0.channel == channel) }
    }

    /// Waits for the close.
    func waitForClose(seconds: Double = 10) async -> WebSocketCloseInfo? {
        await wait(seconds) { $0.closeInfo != nil }
        return closeInfo
    }

    /// The connection id from the handshake (waits for it).
    func connectionId(dialect: Dialect = .bird) async -> String? {
        guard let handshake = await waitFor(ProtocolEvent.connectionEstablished.wireName(dialect)) else { return nil }
        return handshake.data?.value[dialect.connectionIdKey]?.stringValue
    }
}

/// One HTTP request to the sandbox.
func http(_ method: String, _ url: String, body: JSONValue? = nil) async -> (status: Int, body: JSONValue?) {
    guard let target = URL(string: url) else { return (0, nil) }
    do {
        let response = try await HTTPClient.send(
            method: method, url: target, headers: body == nil ? [:] : ["Content-Type": "application/json"],
            body: Array((body?.description ?? "").utf8))
        return (response.status, try? JSONValue(parsing: String(decoding: response.body, as: UTF8.self)))
    } catch {
        return (0, nil)
    }
}
