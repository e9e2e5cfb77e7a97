import BirdRealtime
import BirdRealtimeTestSupport
import BirdSandbox
import BirdWire
import Foundation
import Testing
import TestSupport

/// Every suite of this target nests in this one, so the whole target runs one test at a time:
/// the tests use real sockets, real time and process-wide counts (file descriptors, threads).
@Suite(.serialized) enum Integration {}

/// A sandbox on a free loopback port with short liveness timeouts; stop it with ``stop()``.
final class SandboxFixture: @unchecked Sendable {
    let sandbox: Sandbox
    let logLines = Box<[String]>([])

    init(configure: (inout SandboxConfiguration) -> Void = { _ in }) throws {
        let lines = logLines
        var configuration = SandboxConfiguration(port: 0, activityTimeout: 2, pongTimeout: 1)
        configuration.log = { line in lines.withLock { $0.append(line) } }
        configure(&configuration)
        sandbox = try Sandbox(configuration: configuration)
        try sandbox.start()
    }

    /// A sandbox serving TLS (`wss://`, `https://`) with `certificates`' certificate and key.
    convenience init(servingTLS certificates: TestCertificates) throws {
        try self.init { c in
            c.tlsCertificateFile = certificates.certificateFile
            c.tlsPrivateKeyFile = certificates.keyFile
        }
    }

    var endpoints: SandboxEndpoints { sandbox.endpoints }
    var port: Int { endpoints.port }

    /// The demo channel auth endpoint; presence identity `member` when given.
    func authURL(member: String? = nil) -> URL {
        URL(string: endpoints.authEndpoint + (member.map { "?member=\($0)" } ?? ""))!
    }

    /// The demo sign-in endpoint, signing in as `member`.
    func memberAuthURL(member: String) -> URL {
        URL(string: endpoints.memberAuthEndpoint + "?member=\(member)")!
    }

    /// The sandbox's record of connection `id`, if it is open.
    func connection(_ id: String?) -> SandboxConnectionInfo? {
        guard let id else { return nil }
        return sandbox.connections().first { $0.id == id }
    }

    func stop() { sandbox.stop(grace: 0.5) }
}

/// One client against a sandbox, with everything it reports recorded.
final class ClientFixture: @unchecked Sendable {
    let bird: BirdRealtime
    let recorder = ClientRecorder()
    let delivery: DispatchQueue
    let authLog: AuthLog

    /// Options: app key of the sandbox, `127.0.0.1:<port>` with `allowInsecure`, the demo auth
    /// endpoints, activity timeout 2 s, pong timeout 1 s, small seeded jitter, a private delivery
    /// queue. `configure` adjusts them; `environment` replaces the live one (its HTTP is wrapped
    /// to record auth requests either way).
    init(
        sandbox: SandboxFixture?, port: Int? = nil, member: String? = nil, seed: UInt64 = 1,
        environment: RealtimeEnvironment = .live, configure: (inout BirdRealtime.Options) -> Void = { _ in }
    ) {
        delivery = DispatchQueue(label: "integration.delivery.\(UUID().uuidString.prefix(8))")
        var options = BirdRealtime.Options(
            appKey: sandbox?.endpoints.appKey ?? "sandbox-key",
            authEndpoint: sandbox?.authURL(member: member),
            memberAuthEndpoint: member.flatMap { m in sandbox?.memberAuthURL(member: m) },
            host: "127.0.0.1", port: port ?? sandbox?.port, allowInsecure: true,
            activityTimeout: .seconds(2), pongTimeout: .seconds(1), subscribeTimeout: .seconds(5),
            deliveryQueue: delivery)
        options.random = Jitter.source(seed: seed, scale: 0.2)
        options.logHandler = recorder.logHandler
        configure(&options)
        let authLog = AuthLog(performer: environment.http)
        self.authLog = authLog
        let wrapped = RealtimeEnvironment(
            clock: environment.clock, makeTransport: environment.makeTransport, http: authLog.performer)
        bird = BirdRealtime(options: options, environment: wrapped)
        recorder.attach(to: bird)
    }

    var state: ConnectionState { bird.connectionState }

    /// Waits until the client is `connected` (with an id other than `except`) and returns the id.
    @discardableResult
    func connected(
        other except: String? = nil, within seconds: Double = 15, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> String? {
        var id: String?
        let ok = await eventually(
            "client connected (other than \(except ?? "-")); states \(recorder.states)",
            within: seconds, sourceLocation: sourceLocation
        ) {
            id = bird.connectionId
            return bird.connectionState == .connected && id != nil && id != except
        }
        return ok ? id : nil
    }

    /// Waits until every channel named is subscribed.
    @discardableResult
    func subscribed(_ names: [String], within seconds: Double = 15, sourceLocation: SourceLocation = #_sourceLocation)
        async -> Bool
    {
        await eventually(
            "subscribed: \(names.filter { bird.channel(named: $0)?.subscribed != true })",
            within: seconds, sourceLocation: sourceLocation
        ) {
            names.allSatisfy { bird.channel(named: $0)?.subscribed == true }
        }
    }

    /// Disconnects and waits for `disconnected`.
    func shutdown() async {
        bird.disconnect()
        _ = await poll(within: 5) { bird.connectionState == .disconnected }
        await bird.settle()
    }
}

/// Auth endpoint requests seen by a client (through its environment's HTTP performer).
final class AuthLog: @unchecked Sendable {
    struct Entry: Sendable {
        var url: String
        var connectionId: String?
        var channel: String?
        var headers: [String: String]
        /// The HTTP status, or nil when the request failed without one.
        var status: Int?
        /// The `auth` value answered, if any.
        var auth: String?
    }

    private let entries = Box<[Entry]>([])
    private let base: AuthHTTPPerformer

    init(performer: @escaping AuthHTTPPerformer) { base = performer }

    var all: [Entry] { entries.snapshot }

    var performer: AuthHTTPPerformer {
        { [entries, base] request in
            let fields = AuthLog.fields(request.bodyText)
            var entry = Entry(
                url: request.url.absoluteString,
                connectionId: fields["connection_id"] ?? fields["socket_id"],
                channel: fields["channel_name"], headers: request.headers)
            do {
                let response = try await base(request)
                entry.status = response.status
                let body = String(decoding: response.body, as: UTF8.self)
                entry.auth = (try? JSONValue(parsing: body))?["auth"]?.stringValue
                entries.withLock { $0.append(entry) }
                return response
            } catch {
                entries.withLock { $0.append(entry) }
                throw error
            }
        }
    }
}

extension AuthLog {
    /// The string fields of a JSON (bird) or form-encoded (pusher) auth request body.
    static func fields(_ body: String) -> [String: String] {
        if let object = (try? JSONValue(parsing: body))?.objectValue {
            var fields: [String: String] = [:]
            for (name, value) in object { fields[name] = value.stringValue }
            return fields
        }
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }
}

/// A seedable jitter source (SplitMix64) for `Options.random`, scaled down so that backoff waits
/// stay short in real time: attempt n waits at most `scale · min(30 s, 2ⁿ s)`.
enum Jitter {
    static func source(seed: UInt64, scale: Double) -> @Sendable () -> Double {
        let generator = Box(SplitMix64(seed: seed))
        return { generator.withLock { $0.nextUnit() } * scale }
    }
}

/// A loopback TCP port on which nothing listens (bound, then closed).
func closedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
