// With --sandbox the screen should be alive from the first second: a small publisher on the
// embedded sandbox and two simulated presence members (real BirdRealtime clients of their own).

import BirdRealtime
import BirdSandbox
import Foundation

/// Demo traffic on the embedded sandbox: app events at `rate` per second (every fifth one also on
/// the end-to-end encrypted channel, sealed by the sandbox under its channel key), presence
/// members that come and go, and an occasional client event.
final class SandboxDemo: @unchecked Sendable {
    /// The channels the inspector subscribes with `--sandbox` and no `--subscribe`.
    static let channels = ["demo-orders", "private-demo", "presence-demo", "private-encrypted-demo"]

    private let sandbox: Sandbox
    private let rate: Double
    private let dialect: Dialect
    private let queue = DispatchQueue(label: "bird-inspect.demo")
    private var timer: DispatchSourceTimer?
    private var members: [String: BirdRealtime] = [:]
    private var ticks = 0
    private var published = 0

    init(sandbox: Sandbox, rate: Double, dialect: Dialect) {
        self.sandbox = sandbox
        self.rate = rate
        self.dialect = dialect
    }

    /// Starts the publisher and the members.
    func start() {
        queue.async { [self] in
            join("alice", info: "Alice")
            join("bob", info: "Bob")
            let timer = DispatchSource.makeTimerSource(queue: queue)
            let interval = rate > 0 ? max(0.001, 1 / rate) : 1
            timer.schedule(deadline: .now() + 1, repeating: interval)
            timer.setEventHandler { [weak self] in self?.tick(interval: interval) }
            self.timer = timer
            timer.resume()
        }
    }

    /// Stops everything (the members disconnect).
    func stop() {
        queue.sync {
            timer?.cancel()
            timer = nil
            for client in members.values { client.disconnect() }
            members.removeAll()
        }
    }

    private func tick(interval: Double) {
        ticks += 1
        if rate > 0 {
            published += 1
            let statuses = ["placed", "paid", "packed", "shipped", "delivered"]
            sandbox.publish(
                channel: "demo-orders", event: "order-updated",
                data: [
                    "order": .number(JSONNumber(1000 + published)),
                    "status": .string(statuses[published % statuses.count]),
                    "total": .number(JSONNumber(text: "\((published * 37) % 500).99") ?? 0),
                ])
            if published % 5 == 0 {
                // Sealed by the sandbox with the channel key (its master key is set for --sandbox).
                sandbox.publish(
                    channel: "private-encrypted-demo", event: "payment-authorised",
                    data: [
                        "payment": .string("PAY-\(published)"), "card_last4": .string("4242"),
                        "amount": .number(JSONNumber(published % 90 + 10)),
                    ])
            }
            if published % 7 == 0 {
                sandbox.publish(
                    channel: "private-demo", event: "invoice-paid",
                    data: ["invoice": .string("INV-\(published)"), "amount": .number(JSONNumber(published % 90 + 10))])
            }
        }
        // Every ~12 s bob leaves or comes back; every ~5 s alice types.
        let seconds = Double(ticks) * interval
        let previous = Double(ticks - 1) * interval
        if Int(seconds / 12) != Int(previous / 12) {
            if members["bob"] == nil { join("bob", info: "Bob") } else { leave("bob") }
        }
        if Int(seconds / 5) != Int(previous / 5), let alice = members["alice"],
            let room = alice.channel(named: "presence-demo")
        {
            _ = try? room.trigger("client-typing", data: ["typing": true])
        }
    }

    private func join(_ id: String, info: String) {
        let endpoints = sandbox.endpoints
        let client = BirdRealtime(
            options: .init(
                appKey: endpoints.appKey,
                authEndpoint: URL(string: "\(endpoints.authEndpoint)?member=\(id)"),
                host: endpoints.host, port: endpoints.port, allowInsecure: true, dialect: dialect,
                deliveryQueue: queue))
        client.subscribe("presence-demo")
        members[id] = client
    }

    private func leave(_ id: String) {
        members.removeValue(forKey: id)?.disconnect()
    }
}
