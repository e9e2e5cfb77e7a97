import BirdWire
import Foundation
import TestSupport
import WebSocket

/// A small channel auth endpoint (the WebSocket module's server answering plain HTTP) that can
/// misbehave on purpose. It signs like the sandbox's demo endpoint, with the sandbox's app.
final class AuthServer: @unchecked Sendable {
    enum Mode: Sendable, Equatable {
        /// Signs every channel.
        case ok
        /// Answers 200 with a body that is not JSON for channels with the prefix.
        case nonJSON(prefix: String)
        /// Never answers requests for channels with the prefix.
        case silent(prefix: String)
        /// Answers `status` with `body` for every request.
        case status(Int, body: String)
    }

    private let server: WebSocketServer
    private let queue = DispatchQueue(label: "integration.auth-server")
    private let modeBox = Box<Mode>(.ok)
    private let appKey: String
    private let appSecret: String
    /// Requests that were never answered (kept so nothing answers them).
    private let parked = Box<[@Sendable (HTTPResponse) -> Void]>([])
    let seenHeaders = Box<[[String: String]]>([])

    init(appKey: String = "sandbox-key", appSecret: String = "sandbox-secret") throws {
        self.appKey = appKey
        self.appSecret = appSecret
        server = WebSocketServer(configuration: .init(host: "127.0.0.1", port: 0), queue: queue)
        server.shouldUpgrade = { _ in HTTPResponse.json(400, "{\"error\":\"no WebSocket here\"}") }
        server.onHTTPRequest = { [weak self] request, respond in
            guard let self else { return respond(.json(503, "{}")) }
            self.handle(request, respond: respond)
        }
        try server.start()
    }

    var mode: Mode {
        get { modeBox.snapshot }
        set { modeBox.withLock { $0 = newValue } }
    }

    var url: URL { URL(string: "http://127.0.0.1:\(server.port)/auth")! }

    /// Stops accepting connections (the endpoint is "down": connections are refused).
    func goDown() { server.stopListening() }

    /// Accepts connections again on the same port.
    func comeBack() throws { try server.resumeListening() }

    func stop() {
        server.stop()
        parked.withLock { $0.removeAll() }
    }

    private func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name.lowercased()] = value }
        seenHeaders.withLock { $0.append(headers) }
        let fields = (try? JSONValue(parsing: String(decoding: request.body, as: UTF8.self)))?.objectValue ?? [:]
        let channel = fields["channel_name"]?.stringValue ?? ""
        let connectionId = fields["connection_id"]?.stringValue ?? ""
        switch mode {
        case .status(let status, let body):
            return respond(.json(status, body))
        case .nonJSON(let prefix) where channel.hasPrefix(prefix):
            return respond(.text(200, "<html>this is not JSON</html>"))
        case .silent(let prefix) where channel.hasPrefix(prefix):
            parked.withLock { $0.append(respond) }
            return
        default:
            break
        }
        var answer: [String: JSONValue] = [:]
        if channel.hasPrefix("presence-") {
            let identity = JSONValue.object(["member_id": "auth-server", "member_info": ["name": "auth-server"]])
                .description
            answer["auth"] = .string(
                Signature.auth(
                    appKey: appKey, secret: appSecret,
                    string:
                        Signature.presenceChannelString(
                            connectionId: connectionId, channel: channel, memberData: identity)))
            answer["member_data"] = .string(identity)
        } else {
            answer["auth"] = .string(
                Signature.auth(
                    appKey: appKey, secret: appSecret,
                    string:
                        Signature.privateChannelString(connectionId: connectionId, channel: channel)))
        }
        respond(.json(200, JSONValue.object(JSONObject(answer)).description))
    }
}
