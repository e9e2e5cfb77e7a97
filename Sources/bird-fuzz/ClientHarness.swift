import BirdRealtime
import BirdRealtimeTestSupport
import Dispatch

extension FuzzHarness {
    /// A real `BirdRealtime` client (scripted transport, manual clock) driven by fuzzed server frames.
    static let client = FuzzHarness(
        name: "client",
        summary: "lines -> a BirdRealtime client on a ScriptedTransport and a ManualClock: server texts "
            + "(handshakes, subscription answers, member events, errors, pings), closes, drops, clock advances",
        entry: { data, size in
            ClientFuzz.run(data.fuzzBytes(count: size))
            return 0
        },
        // LeakSanitizer cannot see Swift's weak-reference side tables (the client's weak captures
        // read as leaks): a false positive, as for the http harness.
        defaultFlags: ["-detect_leaks=0", "-max_len=4096"])
}

/// The client harness: one fresh client per input, in either dialect, subscribed to a public, a
/// private and a presence channel (a local authorizer signs at once), with handlers on every
/// channel and every client callback so payloads are parsed. The input is lines (LF); each line is
/// one step:
///
/// - `!hs X` — a handshake whose `activity_timeout` is the text X verbatim (`120`, `1e16`, `-5`,
///   `"120"`, `[]`…), connection id `1.1`.
/// - `+N` — advance the manual clock by N ms (at most an hour per step): timers fire (handshake
///   timeout, activity check, pong timeout, backoff, subscribe timeouts).
/// - `!open` — the current socket opens (the first socket is opened before the first step).
/// - `!close N` — the server closes the current socket with code N; `!drop` — the network fails.
/// - `!bin N` — a binary message of N (at most 4096) bytes.
/// - `!sub NAME`, `!unsub NAME`, `!signin`, `!signout`, `!connect`, `!disconnect` — app calls.
/// - anything else — a text frame from the server, verbatim.
///
/// At most 128 steps are run. A first line `!pusher` selects the pusher dialect. Findings: a crash anywhere; the client
/// sending a text that does not decode as a protocol message; `connected` without a connection id.
enum ClientFuzz {
    static let channels = ["public-a", "private-b", "presence-c"]

    static func run(_ bytes: [UInt8]) {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        var dialect = Dialect.bird
        if lines.first == "!pusher" {
            dialect = .pusher
            lines.removeFirst()
        }
        let session = Session(dialect: dialect)
        defer { session.finish() }
        // Deliveries run on the delivery queue meanwhile; `finish` waits for them.
        for line in lines.prefix(128) { session.step(line) }
    }

    /// One client and its scripted world.
    final class Session {
        let clock = ManualClock()
        let transport = ScriptedTransport()
        let delivery = DispatchQueue(label: "bird-fuzz.client.delivery")
        let bird: BirdRealtime
        private var tokens: [BindingToken] = []

        init(dialect: Dialect) {
            var options = BirdRealtime.Options(
                appKey: "fuzzkey", host: "127.0.0.1", allowInsecure: true, dialect: dialect, deliveryQueue: delivery)
            options.authorizer = { request in
                let memberData: String? =
                    request.channelName.hasPrefix("presence-")
                    ? #"{"\#(dialect.presenceIdKey)":"me","\#(dialect.presenceInfoKey)":{"name":"Me"}}"# : nil
                return AuthResponse(auth: "fuzzkey:signature", memberData: memberData)
            }
            options.memberAuthorizer = { _ in
                AuthResponse(auth: "fuzzkey:signature", memberData: #"{"id":"me","user_info":{"name":"Me"}}"#)
            }
            options.random = { 0.5 }
            options.logHandler = { _, message in _ = message.count }
            bird = BirdRealtime(options: options, environment: transport.environment(clock: clock))
            observe()
            for name in ClientFuzz.channels { watch(bird.subscribe(name)) }
            settle()
            transport.last?.open()
            settle()
        }

        private func observe() {
            tokens.append(bird.onStateChange { change in _ = change.description })
            tokens.append(bird.onError { error in _ = error.description })
            tokens.append(bird.onSigninError { error in _ = error.message })
            tokens.append(bird.onWireMessage { _, text in _ = text.count })
            tokens.append(bird.onChannelEvent { event in _ = event.name })
            tokens.append(bird.onRetryScheduled { schedule in _ = schedule.delay })
            _ = bird.member.bindAll { name, value in _ = (name, value?.description) }
        }

        private func watch(_ channel: Channel) {
            let presence = channel as? PresenceChannel
            _ = channel.bindAll { [weak presence] name, value in
                _ = (name, value?.description)
                if let presence { _ = (presence.members.count, presence.myId) }
            }
        }

        /// Waits until the client has handled everything so far (its queue, authorizations, deliveries).
        func settle() {
            let done = DispatchSemaphore(value: 0)
            let bird = self.bird
            Task {
                await bird.settle()
                done.signal()
            }
            done.wait()
        }

        func step(_ line: String) {
            let socket = transport.last
            if line.hasPrefix("+"), let ms = Int(line.dropFirst().prefix(7)) {
                clock.advance(by: .milliseconds(min(max(0, ms), 3_600_000)))
            } else if line.hasPrefix("!hs ") {
                socket?.receive(handshake(activityTimeout: line.dropFirst(4)))
            } else if line == "!open" {
                socket?.open()
            } else if line.hasPrefix("!close") {
                socket?.serverClose(code: Int(line.dropFirst(7).prefix(6)) ?? 1006, reason: "fuzz")
            } else if line == "!drop" {
                socket?.networkFailure()
            } else if line.hasPrefix("!bin") {
                socket?.receive(
                    binary: [UInt8](repeating: 0x2A, count: min(4096, max(0, Int(line.dropFirst(5).prefix(4)) ?? 1))))
            } else if line.hasPrefix("!sub ") {
                watch(bird.subscribe(String(line.dropFirst(5))))
            } else if line.hasPrefix("!unsub ") {
                bird.unsubscribe(String(line.dropFirst(7)))
            } else if line == "!signin" {
                let bird = self.bird
                Task { _ = try? await bird.signin() }
            } else if line == "!signout" {
                bird.signout()
            } else if line == "!connect" {
                bird.connect()
            } else if line == "!disconnect" {
                bird.disconnect()
            } else {
                socket?.receive(line)
            }
            // Waiting for the client costs a task and two queue hops; only app calls (queued) and
            // handshakes (which start authorizations) need it for the next step to see their effect.
            if line.hasPrefix("!") || line.contains("connection_established") { settle() }
            check()
        }

        /// A handshake in the client's dialect whose `activity_timeout` is `value`, verbatim (any
        /// number text, or not a number at all), in the double-encoded form edges send.
        func handshake(activityTimeout value: Substring) -> String {
            let dialect = bird.options.dialect
            let data = #"{"\#(dialect.connectionIdKey)":"1.1","activity_timeout":\#(value)}"#
            return WireMessage(
                event: ProtocolEvent.connectionEstablished.wireName(dialect), data: .string(data)
            ).encode()
        }

        /// What must hold after every step.
        private func check() {
            if bird.connectionState == .connected && bird.connectionId == nil {
                fatalError("connected without a connection id")
            }
            for socket in transport.connections {
                for text in socket.sent {
                    guard (try? WireMessage.decode(text)) != nil else {
                        fatalError("the client sent a text that is not a protocol message: \(text)")
                    }
                }
            }
        }

        /// Releases the client; its shutdown resumes a pending `signin()`.
        func finish() {
            bird.disconnect()
            for token in tokens { bird.unbind(token) }
            settle()
        }
    }
}
