import BirdWire
import Foundation
import WebSocket

/// The same fan-out connections made of the WebSocket module's `WebSocketClient` (all clients
/// share its one event-loop thread; events reach one serial delivery queue, where the receive
/// time is read). Kept to measure what the library client costs against ``LeanFanoutClients``.
public final class ClientFanoutClients: @unchecked Sendable {
    /// Where the totals go.
    public let recorder: FanoutRecorder
    private let target: LeanFanoutClients.Target
    private let url: URL
    private let queue = DispatchQueue(label: "bird-bench.fanout.delivery")
    // Delivery-queue state.
    private var clients: [WebSocketClient] = []
    private var subscribers: [FanoutSubscriber] = []
    private var settled: [Bool] = []
    private var toOpen = 0
    private var window = 1
    private var inFlight = 0

    /// Clients for `target`; nil when the URL cannot be formed.
    public init?(target: LeanFanoutClients.Target, recorder: FanoutRecorder) {
        guard let url = URL(string: "ws://\(target.host):\(target.port)\(target.path)") else { return nil }
        self.url = url
        self.target = target
        self.recorder = recorder
    }

    /// Opens `count` more connections, at most `window` handshaking at once (returns at once).
    public func open(count: Int, window: Int) {
        queue.async {
            self.toOpen += count
            self.window = Swift.max(1, window)
            self.startMore()
        }
    }

    /// Closes every connection (returns once the closes are started).
    public func closeAll() {
        queue.sync {
            toOpen = 0
            for client in clients { client.abort() }
        }
    }

    private func startMore() {
        while toOpen > 0 && inFlight < window {
            toOpen -= 1
            inFlight += 1
            let index = clients.count
            let client = WebSocketClient(
                configuration: .init(url: url, connectTimeout: .seconds(30)), queue: queue,
                onEvents: { [weak self] events in self?.handle(index, events) })
            clients.append(client)
            subscribers.append(FanoutSubscriber(dialect: target.dialect, channel: target.channel, event: target.event))
            settled.append(false)
            client.connect()
        }
    }

    private func handle(_ index: Int, _ events: [WebSocketEvent]) {
        let received = monotonicNanos()
        var batch = FanoutRecorder.Batch()
        for event in events {
            switch event {
            case .text(let text):
                for action in subscribers[index].input(text: text, receivedNanos: received) {
                    switch action {
                    case .send(let message): try? clients[index].send(text: message)
                    case .subscribed:
                        settle(index)
                        batch.note(action)
                    case .failed(let reason):
                        settle(index)
                        batch.fail(reason)
                        clients[index].abort()
                    case .delivery: batch.note(action)
                    }
                }
            case .closed(let info):
                if !settled[index] || info.initiatedLocally == false {
                    batch.fail("closed: \(info.code) \(info.reason) \(info.error.map { "\($0)" } ?? "")")
                }
                settle(index)
            default:
                break
            }
        }
        if !batch.isEmpty { recorder.record(batch) }
        startMore()
    }

    private func settle(_ index: Int) {
        guard !settled[index] else { return }
        settled[index] = true
        inFlight -= 1
    }
}
