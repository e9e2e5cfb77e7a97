import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

/// A client on a scripted transport, a manual clock and scripted HTTP, with everything recorded.
final class Harness: @unchecked Sendable {
    let clock = ManualClock()
    let transport = ScriptedTransport()
    let http: ScriptedHTTP
    let recorder = ClientRecorder()
    let delivery = DispatchQueue(label: "test.delivery")
    let bird: BirdRealtime
    let authorizedIds = TestBox<[String]>([])

    /// - Parameters:
    ///   - configure: changes to the default options (app key `k`, host 127.0.0.1, a signing
    ///     authorizer that records connection ids, random fixed at 1: the largest delay).
    init(
        dialect: Dialect = .bird, http: ScriptedHTTP = ScriptedHTTP(),
        _ configure: (inout BirdRealtime.Options) -> Void = { _ in }
    ) {
        self.http = http
        var options = BirdRealtime.Options(
            appKey: "k", host: "127.0.0.1", allowInsecure: true, dialect: dialect,
            deliveryQueue: delivery)
        let ids = authorizedIds
        options.authorizer = { request in
            ids.mutate { $0.append(request.connectionId) }
            let memberData: String? =
                request.channelName.hasPrefix("presence-")
                ? JSONValue.object([dialect.presenceIdKey: "me", dialect.presenceInfoKey: ["name": "Me"]]).description
                : nil
            return AuthResponse(auth: "k:sig-\(request.connectionId)", memberData: memberData)
        }
        options.random = SeededRandom.constant(1)
        options.logHandler = recorder.logHandler
        configure(&options)
        // Hold deliveries until the recorder is attached, so it sees the very first ones.
        delivery.suspend()
        bird = BirdRealtime(options: options, environment: transport.environment(clock: clock, http: http))
        recorder.attach(to: bird)
        delivery.resume()
    }

    var dialect: Dialect { bird.options.dialect }

    /// The newest socket.
    var socket: ScriptedConnection {
        get throws { try #require(transport.last) }
    }

    func settle() async { await bird.settle() }

    /// Settles, then completes the current socket's handshake with `id`, then settles.
    @discardableResult
    func connect(id: String = "1.1", activityTimeout: Int? = 120) async throws -> ScriptedConnection {
        await settle()
        let socket = try self.socket
        socket.handshake(connectionId: id, activityTimeout: activityTimeout, dialect: dialect)
        await settle()
        return socket
    }

    /// Answers the subscription of `channel` on the current socket.
    func succeed(_ channel: String, data: JSONValue? = nil) async throws {
        try socket.receive(
            event: ProtocolEvent.subscriptionSucceeded.wireName(dialect), channel: channel, data: data ?? [:])
        await settle()
    }

    /// Channels the current socket sent `subscribe` for.
    func subscribed(on socket: ScriptedConnection) -> [String] {
        socket.sent(event: ProtocolEvent.subscribe.wireName(dialect)).compactMap {
            $0.data?.value["channel"]?.stringValue
        }
    }

    /// Polls `condition` (settling in between) until it holds or 30 s of real time pass (a
    /// generous deadline: the whole suite shares two cores); then records an issue naming `what` at
    /// the caller's location. When settling, it settles once more after the condition holds, so the
    /// callbacks the client queued by then (an `onError` after the state it goes with) have run.
    func waitUntil(
        _ condition: () -> Bool, what: @autoclosure () -> String = "a condition", settling: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            if ContinuousClock.now > deadline {
                Issue.record("\(what()) not met within 30 s", sourceLocation: sourceLocation)
                return
            }
            try? await Task.sleep(for: .milliseconds(2))
            // settle() waits for in-flight authorizations: a condition about a running one polls without it.
            if settling { await settle() }
        }
        if settling { await settle() }
    }

    func advance(_ duration: Duration) async {
        await settle()
        clock.advance(by: duration)
        await settle()
    }
}

/// A value shared between a test and closures.
final class TestBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    var get: Value {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func mutate(_ body: (inout Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&value)
    }
}
