import BirdWire
import WebSocket

/// The control API over an in-memory edge, for the `control` fuzz harness: the same screening,
/// routing, field validation and actions as a running sandbox, with no sockets, timers or queue.
/// Connections are in-memory links that record what the edge did to them; `restart` and `burst`
/// are recorded, not performed. Not thread-safe.
package final class ControlAPIProbe {
    /// What the edge did to one in-memory connection.
    package final class Link: EdgeLink {
        /// The close frame's code and reason, once closed.
        package private(set) var closed: (code: Int, reason: String)?
        /// Whether it was dropped without a close frame.
        package private(set) var dropped = false
        /// Text frames sent.
        package private(set) var sent = 0
        /// Raw frames sent.
        package private(set) var raw = 0

        func send(text: String) { sent += 1 }
        func close(code: Int, reason: String) { closed = (code, reason) }
        func drop() { dropped = true }
        func pauseReading() {}
        func sendRaw(binary: Bool, payload: [UInt8]) { raw += 1 }
    }

    /// A recorded `restart` call.
    package struct Restart: Equatable {
        package var code: Int
        package var reason: String
        package var downSeconds: Double
    }

    /// A recorded `burst` call.
    package struct Burst: Equatable {
        package var channel: String
        package var event: String
        package var count: Int
        package var rate: Double
    }

    private let edge: Edge
    private let calls = Recorded()
    /// The in-memory connections, in order of opening.
    package private(set) var links: [(id: String, link: Link)] = []

    private final class Recorded: @unchecked Sendable {
        var restarts: [Restart] = []
        var bursts: [Burst] = []
    }

    /// An edge in `dialect` with `connections` open connections.
    package init(dialect: Dialect, connections: Int = 2) {
        edge = Edge(
            configuration: SandboxConfiguration(dialect: dialect, clientEvents: true), clock: { 1_800_000_000 })
        for _ in 0..<connections { open() }
    }

    /// The recorded `restart` calls.
    package var restarts: [Restart] { calls.restarts }
    /// The recorded `burst` calls.
    package var bursts: [Burst] { calls.bursts }
    /// The refusal in force: code, reason and end time (nil: until cleared).
    package var refusal: (code: Int, reason: String, until: Double?)? { edge.refusal }
    /// The auth failure in force.
    package var authFailure: (status: Int, prefix: String?)? { edge.authFailure }
    /// The handshakes still to go out without an id.
    package var omitHandshakeIds: Int { edge.omitHandshakeIds }

    /// Answers `request` as the sandbox would (its remote address decides loopback).
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        if let refusal = Sandbox.controlRefusal(
            request, hasBody: !request.body.isEmpty, listenHost: edge.configuration.host)
        {
            return refusal
        }
        let calls = self.calls
        let control = ControlAPI(
            edge: edge,
            restart: { code, reason, down in
                calls.restarts.append(Restart(code: code, reason: reason, downSeconds: down))
            },
            burst: { channel, event, _, count, rate in
                calls.bursts.append(Burst(channel: channel, event: event, count: count, rate: rate))
            })
        let outcome = control.handle(request)
        outcome.afterResponse?()
        return outcome.response
    }

    /// Undoes what earlier requests changed: no refusal, auth failure, omitted ids or records;
    /// every connection open again.
    package func reset() {
        edge.clearRefusal()
        edge.authFailure = nil
        edge.omitHandshakeIds = 0
        calls.restarts.removeAll()
        calls.bursts.removeAll()
        let count = links.count
        for (id, _) in links where edge.connection(id) != nil { _ = edge.dropConnection(id: id) }
        links.removeAll()
        for _ in 0..<count { open() }
    }

    private func open() {
        let link = Link()
        if let id = edge.open(
            link: link, path: "/app/\(edge.configuration.appKey)", query: [("protocol", "7")],
            remote: "127.0.0.1:5000")
        {
            links.append((id, link))
        }
    }
}
