import BirdWire
import WebSocket

@testable import BirdSandbox

/// An in-memory link that records what the edge did to it.
final class FakeLink: EdgeLink {
    var sent: [String] = []
    var closed: (code: Int, reason: String)?
    var dropped = false
    var paused = false
    var raw: [(binary: Bool, payload: [UInt8])] = []

    func send(text: String) { sent.append(text) }
    func close(code: Int, reason: String) { closed = (code, reason) }
    func drop() { dropped = true }
    func pauseReading() { paused = true }
    func sendRaw(binary: Bool, payload: [UInt8]) { raw.append((binary, payload)) }

    /// Every sent message, decoded.
    var messages: [WireMessage] { sent.compactMap { try? WireMessage.decode($0) } }

    /// Removes and returns the messages sent so far.
    func take() -> [WireMessage] {
        defer { sent.removeAll() }
        return messages
    }

    /// Messages with the given event name.
    func messages(named event: String) -> [WireMessage] { messages.filter { $0.event == event } }
}

/// A manual clock for the edge (unix seconds).
final class ManualTime {
    var now: Double = 1_800_000_000
    func advance(_ seconds: Double) { now += seconds }
}

/// An edge with a manual clock and helpers to open connections and speak to them.
final class EdgeHarness {
    let time = ManualTime()
    let edge: Edge
    let configuration: SandboxConfiguration
    var dialect: Dialect { configuration.dialect }

    init(_ configuration: SandboxConfiguration = SandboxConfiguration()) {
        self.configuration = configuration
        let time = self.time
        edge = Edge(configuration: configuration, clock: { time.now })
    }

    convenience init(
        dialect: Dialect, clientEvents: Bool = false, connectionCount: Bool = false, requireSignin: Double? = nil
    ) {
        self.init(
            SandboxConfiguration(
                dialect: dialect, clientEvents: clientEvents, connectionCount: connectionCount,
                requireSigninSeconds: requireSignin))
    }

    /// Opens a connection to `/app/<key>?protocol=7`; returns its link and id (from the handshake).
    func connect(protocolVersion: String? = "7", key: String? = nil) -> (link: FakeLink, id: String?) {
        let link = FakeLink()
        var query: [(name: String, value: String)] = []
        if let protocolVersion { query.append((name: "protocol", value: protocolVersion)) }
        let id = edge.open(
            link: link, path: "/app/\(key ?? configuration.appKey)", query: query, remote: "127.0.0.1:5000")
        return (link, id)
    }

    /// A connected client: link and id; the handshake is consumed.
    func client() -> (link: FakeLink, id: String) {
        let (link, id) = connect()
        _ = link.take()
        return (link, id ?? "")
    }

    func send(_ id: String, _ event: String, channel: String? = nil, data: JSONValue? = nil) {
        let message = WireMessage(event: event, channel: channel, data: data.map { .json($0.description) })
        edge.receive(text: message.encode(), from: id)
    }

    func subscribe(_ id: String, _ channel: String, auth: String? = nil, presenceData: String? = nil) {
        var data: JSONObject = ["channel": .string(channel)]
        if let auth { data["auth"] = .string(auth) }
        if let presenceData { data[dialect.presenceDataKey] = .string(presenceData) }
        send(id, dialect.eventPrefix + "subscribe", data: .object(data))
    }

    func sign(_ string: String) -> String {
        Signature.auth(appKey: configuration.appKey, secret: configuration.appSecret, string: string)
    }

    /// Subscribes to a presence channel as `member` with a valid signature.
    func joinPresence(_ id: String, _ channel: String, member: String, info: JSONValue? = nil) {
        var identity: JSONObject = [dialect.presenceIdKey: .string(member)]
        if let info { identity[dialect.presenceInfoKey] = info }
        let data = JSONValue.object(identity).description
        subscribe(
            id, channel,
            auth: sign(Signature.presenceChannelString(connectionId: id, channel: channel, memberData: data)),
            presenceData: data)
    }

    /// Subscribes to a private channel with a valid signature.
    func joinPrivate(_ id: String, _ channel: String) {
        subscribe(id, channel, auth: sign(Signature.privateChannelString(connectionId: id, channel: channel)))
    }

    /// Signs in as `member` with a valid signature.
    func signin(_ id: String, member: String) {
        let data = JSONValue.object([dialect.signinIdKey: .string(member)]).description
        let auth = sign(Signature.signinString(connectionId: id, memberData: data, dialect: dialect))
        send(id, dialect.eventPrefix + "signin", data: ["auth": .string(auth), dialect.signinDataKey: .string(data)])
    }

    func wire(_ event: ProtocolEvent) -> String { event.wireName(dialect) }
}
