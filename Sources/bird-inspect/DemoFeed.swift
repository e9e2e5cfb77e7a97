// DemoFeed: a stand-in for the client library until BirdRealtime is wired in. It simulates a
// connection (states, backoff with a countdown, close-code bands), channels, presence members and
// a publisher, and answers the inspector's commands the way the real client would. Nothing here
// touches the network.

import BirdInspector
import Foundation

/// A simulated client producing the same messages the real client's callbacks will.
final class DemoFeed {
    private var queue: [(at: Date, event: ClientEvent)] = []
    private var state: ConnectionState = .initialized
    private var attempt = 0
    private var connectionNumber = 0
    private var channels: [String] = []
    private var subscribed: Set<String> = []
    private var signedIn = false
    private var random: SplitMix64
    private let rate: Double
    private var nextPublish: Date
    private var nextPresence: Date
    private var nextCount: Date
    private var carolHere = false
    private var published = 0

    /// Starts the simulation at `now`, subscribing `channels` once connected.
    init(now: Date, rate: Double, channels: [String], signin: Bool, seed: UInt64 = 7) {
        self.rate = rate
        random = SplitMix64(seed: seed)
        nextPublish = now.addingTimeInterval(1)
        nextPresence = now.addingTimeInterval(6)
        nextCount = now.addingTimeInterval(4)
        self.channels = channels
        transition(to: .connecting, cause: .started, at: now)
        schedule(0.4, now) { $0.handshake(at: $1) }
        if signin { schedule(0.8, now) { feed, at in feed.perform(.signin, now: at) } }
    }

    /// Events due by `now`, oldest first (at most `limit`).
    func poll(now: Date, limit: Int = 2000) -> [Message] {
        runDue(now: now)
        tickSimulation(now)
        queue.sort { $0.at < $1.at }
        var out: [Message] = []
        while let first = queue.first, first.at <= now, out.count < limit {
            queue.removeFirst()
            out.append(.client(first.event, at: first.at))
        }
        return out
    }

    /// Performs a command as the client (or the sandbox, for `closeConnection`) would.
    func perform(_ command: Command, now: Date) {
        switch command {
        case .subscribe(let ch):
            if !channels.contains(ch) { channels.append(ch) }
            if state == .connected { subscribe(ch, at: now.addingTimeInterval(0.15)) }
        case .unsubscribe(let ch):
            channels.removeAll { $0 == ch }
            subscribed.remove(ch)
        case .trigger(let ch, let event, let data):
            if subscribed.contains(ch) {
                emit(.sent(channel: ch, event: event, data: data), now)
            } else {
                emit(.commandError(command: "trigger \(ch) \(event)", message: "\(ch) is not subscribed right now"), now)
            }
        case .signin:
            guard state == .connected else {
                emit(.signinFailed(message: "not connected"), now)
                return
            }
            signedIn = true
            schedule(0.2, now) { feed, at in
                feed.emit(.signinSucceeded(memberId: "you", info: #"{"name":"You (inspector)"}"#), at)
                feed.subscribe("#server-to-member-you", at: at.addingTimeInterval(0.05))
            }
        case .signout:
            signedIn = false
            subscribed.remove("#server-to-member-you")
            if state == .connected {
                transition(to: .connecting, cause: .signout, at: now)
                schedule(0.3, now) { $0.handshake(at: $1) }
            }
        case .disconnect:
            transition(to: .disconnected, cause: .disconnectCalled, at: now)
        case .connect:
            guard state == .disconnected || state == .failed else { return }
            attempt = 0
            transition(to: .connecting, cause: .connectCalled, at: now)
            schedule(0.4, now) { $0.handshake(at: $1) }
        case .drop:
            guard state == .connected || state == .connecting else { return }
            transition(to: .unavailable, cause: .dropped, at: now)
            scheduleRetry(cause: .dropped, now)
        case .closeConnection(_, let code, let reason):
            guard state == .connected else { return }
            let cause = TransitionCause.closed(code: code, reason: reason, by: .server)
            switch CloseBand(code: code) {
            case .refused:
                transition(to: .failed, cause: cause, at: now)
                emit(.error(ErrorReport(code: code, message: CloseCodeText.meaning(code), reason: reason)), now)
            case .reconnectNow:
                transition(to: .connecting, cause: cause, at: now)
                schedule(0.3, now) { $0.handshake(at: $1) }
            case .backoff, .websocket:
                transition(to: .unavailable, cause: cause, at: now)
                scheduleRetry(cause: cause, now)
            }
        case .quit:
            break
        }
    }

    // MARK: - Simulation

    private func tickSimulation(_ now: Date) {
        guard state == .connected else { return }
        if rate > 0 {
            let interval = 1 / rate
            if nextPublish < now.addingTimeInterval(-1) { nextPublish = now }  // after a stall, do not burst
            while nextPublish <= now {
                publish(at: nextPublish)
                nextPublish = nextPublish.addingTimeInterval(interval * (0.5 + random.unit()))
            }
        }
        if nextPresence <= now {
            nextPresence = now.addingTimeInterval(5 + 5 * random.unit())
            for ch in subscribed where ch.hasPrefix("presence-") {
                if carolHere {
                    emit(.memberRemoved(channel: ch, memberId: "carol"), now)
                } else {
                    emit(.memberAdded(channel: ch, PresenceMember(id: "carol", info: #"{"name":"Carol","city":"Jakarta"}"#)), now)
                }
            }
            carolHere.toggle()
        }
        if nextCount <= now {
            nextCount = now.addingTimeInterval(10)
            for ch in subscribed where !ch.hasPrefix("presence-") && !ch.hasPrefix("#") {
                emit(.connectionCount(channel: ch, count: 2 + Int(random.unit() * 5)), now)
            }
        }
    }

    private func publish(at time: Date) {
        let targets = subscribed.filter { !$0.hasPrefix("#") }.sorted()
        guard !targets.isEmpty else { return }
        published += 1
        let ch = targets[Int(random.unit() * Double(targets.count)) % targets.count]
        let n = published
        let samples: [(String, String, String?)] = [
            ("price-update", #"{"symbol":"BIRD","price":\#(100 + Double(n % 50) / 4),"seq":\#(n)}"#, nil),
            ("chat-message", #"{"text":"こんにちは 👋 from the demo","n":\#(n)}"#, nil),
            ("order-created", #"{"id":"ord_\#(n)","items":[{"sku":"A1","qty":2},{"sku":"B7","qty":1}],"total":"€12.50"}"#, nil),
            ("client-typing", #"{"typing":true}"#, "bob"),
            ("token-rotated", #"{"user":"alice","token":"s3cr3t-should-never-show","auth":"key:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}"#, nil),
            ("raw-text", "not json: café – e\u{301}t\u{E9}", nil),
        ]
        let pick = samples[n % samples.count]
        let fromMember = ch.hasPrefix("presence-") ? pick.2 : nil
        emit(.event(ChannelEvent(channel: ch, event: pick.0, data: pick.1, memberId: fromMember)), time)
    }

    private func handshake(at now: Date) {
        guard state == .connecting else { return }
        connectionNumber += 1
        attempt = 0
        let id = "\(41_000 + connectionNumber * 17).\(800_000 + connectionNumber * 31)"
        emit(.stateChanged(StateChange(previous: state, current: .connected, cause: .handshake, connectionId: id,
                                       activityTimeout: .seconds(120))), now)
        state = .connected
        subscribed.removeAll()
        for (i, ch) in channels.enumerated() { subscribe(ch, at: now.addingTimeInterval(0.1 + 0.05 * Double(i))) }
        if signedIn { subscribe("#server-to-member-you", at: now.addingTimeInterval(0.3)) }
    }

    private func subscribe(_ ch: String, at time: Date) {
        queueAction(time) { feed, at in
            guard feed.state == .connected, feed.channels.contains(ch) || ch.hasPrefix("#") else { return }
            if ch.hasPrefix("private-denied") {
                feed.emit(.subscriptionError(channel: ch, SubscriptionFailure(type: "AuthError", status: 403,
                                                                            endpoint: "http://127.0.0.1/demo/auth",
                                                                            message: "auth endpoint answered 403")), at)
                return
            }
            feed.subscribed.insert(ch)
            feed.emit(.subscribed(channel: ch), at)
            if ch.hasPrefix("presence-") {
                var members = [PresenceMember(id: "alice", info: #"{"name":"Alice","role":"admin"}"#),
                               PresenceMember(id: "bob", info: #"{"name":"Bob 🐦"}"#),
                               PresenceMember(id: "you", info: #"{"name":"You (inspector)"}"#),
                               PresenceMember(id: "李雷", info: #"{"name":"李雷","city":"北京"}"#)]
                if feed.carolHere { members.append(PresenceMember(id: "carol", info: #"{"name":"Carol","city":"Jakarta"}"#)) }
                feed.emit(.membersSnapshot(channel: ch, members: members, myId: "you"), at)
            }
        }
    }

    private func scheduleRetry(cause: TransitionCause, _ now: Date) {
        let cap = min(30, pow(2, Double(attempt)))
        let delay = 1.5 + random.unit() * cap
        let n = attempt
        attempt += 1
        emit(.retryScheduled(RetrySchedule(delay: .milliseconds(Int(delay * 1000)), attempt: n, cause: cause)), now)
        schedule(delay, now) { feed, at in
            guard feed.state == .unavailable else { return }
            feed.transition(to: .connecting, cause: .retryDue, at: at)
            feed.schedule(0.4, at) { $0.handshake(at: $1) }
        }
    }

    private func transition(to next: ConnectionState, cause: TransitionCause, at time: Date) {
        let previous = state
        state = next
        if next != .connected { subscribed.removeAll() }
        emit(.stateChanged(StateChange(previous: previous, current: next, cause: cause)), time)
    }

    private func emit(_ event: ClientEvent, _ at: Date) { queue.append((at, event)) }

    // Deferred actions run when their time comes, inside poll.
    private var actions: [(at: Date, run: (DemoFeed, Date) -> Void)] = []

    private func schedule(_ seconds: Double, _ now: Date, _ run: @escaping (DemoFeed, Date) -> Void) {
        queueAction(now.addingTimeInterval(seconds), run)
    }

    private func queueAction(_ at: Date, _ run: @escaping (DemoFeed, Date) -> Void) {
        actions.append((at, run))
    }

    /// Runs deferred actions due by `now`.
    private func runDue(now: Date) {
        while let i = actions.indices.min(by: { actions[$0].at < actions[$1].at }), actions[i].at <= now {
            let action = actions.remove(at: i)
            action.run(self, action.at)
        }
    }
}

/// A small seedable random source (SplitMix64).
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
