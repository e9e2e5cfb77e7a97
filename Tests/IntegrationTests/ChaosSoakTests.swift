import BirdRealtime
import BirdRealtimeTestSupport
import BirdSandbox
import BirdWire
import Foundation
import Testing
import TestSupport

/// The chaos soak of issue 6: 200 channels, 100 faults in a seeded random order, then a full
/// audit — subscriptions on the sandbox, handlers, re-authorization per connection id, rosters,
/// duplicates, file descriptors and threads. `BIRD_SOAK_SEED` and `BIRD_SOAK_FAULTS` override the
/// seed and the number of faults (the sanitizer stage runs fewer).
extension Integration {
    @Suite(.serialized) struct ChaosSoakTests {
        enum Fault: CustomStringConvertible {
            case close(Int), drop, silence, restart(downSeconds: Double), authOutage

            var description: String {
                switch self {
                case .close(let code): return "close \(code)"
                case .drop: return "TCP drop"
                case .silence: return "silence"
                case .restart(let down): return "restart (down \(down) s)"
                case .authOutage: return "auth endpoint outage"
                }
            }
        }

        /// Codes from the retry bands (immediate 4200–4299, backoff 4100–4199, standard, 4300+).
        static let retryCodes = [1000, 1001, 1011, 1012, 4100, 4150, 4199, 4200, 4201, 4250, 4299, 4300, 4999]

        static func faults(count: Int, rng: inout SplitMix64) -> [Fault] {
            var all: [Fault] = []
            for i in 0..<45 { all.append(.close(retryCodes[(i + Int(rng.next() % 13)) % retryCodes.count])) }
            all += Array(repeating: .drop, count: 35)
            all += Array(repeating: .silence, count: 8)
            for _ in 0..<6 { all.append(.restart(downSeconds: 0.3 + Double(rng.next() % 5) / 10)) }
            all += Array(repeating: .authOutage, count: 6)
            all.shuffle(using: &rng)
            return Array(all.prefix(count))
        }

        static let publicChannels = (0..<100).map { String(format: "pub-%03d", $0) }
        static let privateChannels = (0..<60).map { String(format: "private-%03d", $0) }
        static let presenceChannels = (0..<40).map { String(format: "presence-%03d", $0) }
        static var signed: [String] { privateChannels + presenceChannels }
        static var all: [String] { publicChannels + signed }

        @Test("chaos soak: 200 channels, 100 faults, then everything is as it should be")
        func chaosSoak() async throws {
            let environment = ProcessInfo.processInfo.environment
            let seed = environment["BIRD_SOAK_SEED"].flatMap { UInt64($0) } ?? 20_261_129
            let faultCount = environment["BIRD_SOAK_FAULTS"].flatMap { Int($0) } ?? 100
            print("chaos soak: seed \(seed), \(faultCount) faults (BIRD_SOAK_SEED / BIRD_SOAK_FAULTS to change)")
            let tag = "[chaos seed \(seed)]"

            try await Self.warmUp()
            let fdBaseline = ProcessCensus.fileDescriptors
            let fdListing = ProcessCensus.descriptorTargets
            let threadBaseline = ProcessCensus.threads
            var port = 0

            do {
                let sandbox = try SandboxFixture()
                defer { sandbox.stop() }
                port = sandbox.port
                var soak = Soak(sandbox: sandbox, seed: seed, tag: tag)
                try await soak.run(faultCount: faultCount)
                await soak.client.shutdown()
                await soak.watcher.shutdown()
            }

            // Resources: every socket to the sandbox is gone; fds back to the baseline; threads
            // within a small tolerance (Dispatch grows its pool lazily).
            await eventually("\(tag) no TCP socket on the sandbox's port \(port)", within: 20) {
                ProcessCensus.tcpSockets(port: port) == 0
            }
            if !(await poll(within: 20, { ProcessCensus.fileDescriptors <= fdBaseline })) {
                let extra = ProcessCensus.descriptorTargets.subtracting(fdListing)
                Issue.record(
                    "\(tag) file descriptors not back to \(fdBaseline) (now \(ProcessCensus.fileDescriptors)): new \(extra.sorted())"
                )
            }
            await eventually("\(tag) threads within \(threadBaseline) + 6 (now \(ProcessCensus.threads))", within: 20) {
                ProcessCensus.threads <= threadBaseline + 6
            }
        }

        @Test("a sandbox that served a connection gives back every descriptor when stopped")
        func sandboxReleasesDescriptors() async throws {
            try await Self.warmUp()
            let before = ProcessCensus.descriptorTargets
            let count = ProcessCensus.fileDescriptors
            do {
                let sandbox = try SandboxFixture()
                let client = ClientFixture(sandbox: sandbox)
                await client.connected()
                await client.shutdown()
                sandbox.stop()
            }
            if !(await poll(within: 10, { ProcessCensus.fileDescriptors <= count })) {
                Issue.record(
                    """
                    descriptors not given back after Sandbox.stop(): \(ProcessCensus.descriptorTargets.subtracting(before).sorted())
                    """)
            }
        }

        /// Opens everything the soak uses once (shared event loop, Dispatch pools, TLS-free HTTP
        /// client), so the baselines do not count lazily created resources.
        static func warmUp() async throws {
            let sandbox = try SandboxFixture()
            let client = ClientFixture(sandbox: sandbox, member: "warm")
            client.bird.subscribe("private-warm")
            client.bird.subscribe("presence-warm")
            if let id = await client.connected() {
                await client.subscribed(["private-warm", "presence-warm"])
                sandbox.sandbox.drop(id: id)
                await client.connected(other: id)
            }
            await client.shutdown()
            sandbox.stop()
            _ = await poll(within: 5) { ProcessCensus.tcpSockets(port: sandbox.port) == 0 }
        }
    }
}

/// The soak's state and steps.
struct Soak {
    typealias Tests = Integration.ChaosSoakTests

    let sandbox: SandboxFixture
    let client: ClientFixture
    /// A steady second client on every presence channel, as member `watcher`.
    let watcher: ClientFixture
    let tag: String
    var rng: SplitMix64
    /// Sequence numbers received per channel (every handler records its channel's `tick`s).
    let deliveries = Box<[String: [Int]]>([:])
    var published: [String: [Int]] = [:]
    var nextSeq = 0
    /// Connection ids on which every channel was subscribed (so each was authorized for it).
    var recoveredIds: [String] = []

    init(sandbox: SandboxFixture, seed: UInt64, tag: String) {
        self.sandbox = sandbox
        self.tag = tag
        rng = SplitMix64(seed: seed)
        client = ClientFixture(sandbox: sandbox, member: "soak", seed: seed)
        watcher = ClientFixture(sandbox: sandbox, member: "watcher", seed: seed &+ 1)
        for name in Tests.all {
            let channel = client.bird.subscribe(name)
            let deliveries = self.deliveries
            channel.bind("tick") { data in
                deliveries.withLock { $0[name, default: []].append(data?["seq"]?.intValue ?? -1) }
            }
        }
        for name in Tests.presenceChannels { watcher.bird.subscribe(name) }
    }

    mutating func run(faultCount: Int) async throws {
        guard await recover(after: nil, authWorks: true, mark: client.recorder.mark) else { return }
        await watcher.subscribed(Tests.presenceChannels)
        var faults = Tests.faults(count: faultCount, rng: &rng)
        var outage = false
        var index = 0
        while !faults.isEmpty {
            let fault = faults.removeFirst()
            index += 1
            if outage {
                sandbox.sandbox.clearAuthFailure()
                outage = false
            }
            // Every fault hits a live connection (possibly one still re-subscribing).
            guard let id = await client.connected(within: 30) else { return }
            guard
                await eventually(
                    "\(tag) fault \(index): \(id) open on the sandbox",
                    {
                        sandbox.connection(id) != nil || client.bird.connectionId != id
                    })
            else { return }
            let mark = client.recorder.mark
            switch fault {
            case .close(let code):
                sandbox.sandbox.closeConnection(id: id, code: code, reason: "chaos \(index)")
            case .drop:
                sandbox.sandbox.drop(id: id)
            case .silence:
                sandbox.sandbox.silence(id: id)
            case .restart(let down):
                sandbox.sandbox.restart(code: 4200, reason: "edge restarting", downSeconds: down)
            case .authOutage:
                sandbox.sandbox.setAuthFailure(status: 503)
                outage = true
                sandbox.sandbox.closeConnection(id: id, code: 4200, reason: "chaos \(index)")
            }
            let quick: Bool
            switch fault {
            case .close, .drop: quick = rng.next() % 10 < 3
            default: quick = false
            }
            if quick {
                // The next fault strikes while this connection is still re-subscribing.
                guard await client.connected(other: id, within: 30) != nil else { return }
                try? await Task.sleep(for: .milliseconds(Int(rng.next() % 150)))
            } else {
                guard await recover(after: id, authWorks: !outage, mark: mark, label: "fault \(index) (\(fault))")
                else {
                    return
                }
            }
        }
        if outage {
            sandbox.sandbox.clearAuthFailure()
            if let id = client.bird.connectionId {
                sandbox.sandbox.closeConnection(id: id, code: 4200, reason: "end of outage")
                guard await recover(after: id, authWorks: true, mark: client.recorder.mark) else { return }
            }
        } else if let id = client.bird.connectionId {
            guard await recover(after: id, authWorks: true, mark: client.recorder.mark, expectNew: false) else {
                return
            }
        }
        await audit()
    }

    /// Waits until the client is connected (on a new connection unless `expectNew` is false) and
    /// every channel that can be subscribed is — on the client and on the sandbox — then checks
    /// delivery on a sample of channels.
    mutating func recover(
        after previous: String?, authWorks: Bool, mark: ClientRecorder.Mark, expectNew: Bool = true,
        label: String = "start"
    ) async -> Bool {
        let expected = authWorks ? Tests.all : Tests.publicChannels
        var current: String?
        var nudgeMark = mark
        let ok = await eventually("\(tag) \(label): recovered with \(expected.count) channels", within: 45) {
            // A connection made while the sandbox restarts can find its auth endpoint (same port)
            // refusing: channels wait for a next connection (docs/PROTOCOL.md § Channels across reconnects): make one.
            if authWorks, let id = client.bird.connectionId, client.state == .connected,
                client.recorder.events("bird:subscription_error", since: nudgeMark).contains(where: {
                    $0.data?["status"]?.intValue == 0 && $0.data?["type"] == "AuthError"
                })
            {
                nudgeMark = client.recorder.mark
                sandbox.sandbox.closeConnection(id: id, code: 4200, reason: "auth endpoint was unreachable")
                return false
            }
            guard let id = client.bird.connectionId, client.state == .connected, !expectNew || id != previous,
                let info = sandbox.connection(id), !info.silenced,
                Set(info.channels) == Set(expected),
                expected.allSatisfy({ client.bird.channel(named: $0)?.subscribed == true })
            else { return false }
            current = id
            return true
        }
        guard ok, let id = current else {
            let live = sandbox.sandbox.connections().map {
                "\($0.id)\($0.silenced ? " (silenced)" : "") \($0.channels.count) ch"
            }
            let unsubscribed = expected.filter { client.bird.channel(named: $0)?.subscribed != true }
            Issue.record(
                """
                \(tag) \(label): client \(client.state) \(client.bird.connectionId ?? "-") (previous \(previous ?? "-")); \
                sandbox: \(live); unsubscribed on the client: \(unsubscribed.count) \(unsubscribed.prefix(4)); \
                last changes: \(client.recorder.changes.suffix(4)); last retries: \(client.recorder.retries.suffix(3).map { "\($0.attempt) \($0.delay)" }); \
                sandbox log: \(sandbox.logLines.snapshot.suffix(8))
                """)
            return false
        }
        if authWorks {
            recoveredIds.append(id)
            // The steady watcher is disturbed only by restarts; it recovers too.
            var watcherMark = ClientRecorder.Mark()
            let watcherOK = await eventually("\(tag) \(label): the watcher recovered") {
                if let wid = watcher.bird.connectionId, watcher.state == .connected,
                    watcher.recorder.events("bird:subscription_error", since: watcherMark).contains(where: {
                        $0.data?["status"]?.intValue == 0
                    })
                {
                    watcherMark = watcher.recorder.mark
                    sandbox.sandbox.closeConnection(id: wid, code: 4200, reason: "auth endpoint was unreachable")
                    return false
                }
                guard let wid = watcher.bird.connectionId, let info = sandbox.connection(wid) else { return false }
                return Set(info.channels) == Set(Tests.presenceChannels)
                    && Tests.presenceChannels.allSatisfy { watcher.bird.channel(named: $0)?.subscribed == true }
            }
            guard watcherOK else {
                let w = watcher.recorder
                Issue.record(
                    """
                    \(tag) watcher: \(watcher.state) \(watcher.bird.connectionId ?? "-"); on the sandbox: \
                    \(sandbox.connection(watcher.bird.connectionId).map { "\($0.channels.count) ch" } ?? "none"); \
                    unsubscribed: \(Tests.presenceChannels.filter { watcher.bird.channel(named: $0)?.subscribed != true }.count); \
                    last changes \(w.changes.suffix(5)); retries \(w.retries.suffix(4).map { "\($0.attempt) \($0.delay) \($0.cause)" }); \
                    errors \(w.errors.suffix(3)); sub errors \(w.events("bird:subscription_error").suffix(2).map { "\($0.channel) \($0.data?.description ?? "")" })
                    """)
                return false
            }
        } else {
            await eventually("\(tag) \(label): every signed channel reported the outage") {
                let errors = client.recorder.events("bird:subscription_error", since: mark)
                return Set(errors.filter { $0.data?["status"]?.intValue == 503 }.map(\.channel)) == Set(Tests.signed)
            }
        }
        // Fresh events on a sample of the subscribed channels.
        var sample: [String] = []
        for _ in 0..<8 { sample.append(expected[Int(rng.next() % UInt64(expected.count))]) }
        return await publishAndAwait(Array(Set(sample)), label: label)
    }

    mutating func publishAndAwait(_ channels: [String], label: String) async -> Bool {
        var awaited: [(String, Int)] = []
        for name in channels {
            nextSeq += 1
            published[name, default: []].append(nextSeq)
            sandbox.sandbox.publish(channel: name, event: "tick", data: ["seq": .number(JSONNumber(nextSeq))])
            awaited.append((name, nextSeq))
        }
        let deliveries = self.deliveries
        return await eventually("\(tag) \(label): ticks delivered on \(channels.count) channels", within: 20) {
            let got = deliveries.snapshot
            return awaited.allSatisfy { name, seq in got[name]?.contains(seq) == true }
        }
    }

    mutating func audit() async {
        let recorder = client.recorder
        guard let finalId = client.bird.connectionId else {
            Issue.record("\(tag) not connected at the end")
            return
        }
        // Every channel subscribed exactly once on the sandbox: one live connection of the soak
        // client, carrying all 200; each presence channel also carries the watcher once.
        let soakIds = Set(recorder.connectedIds)
        let live = sandbox.sandbox.connections().filter { !$0.silenced }
        let soakLive = live.filter { soakIds.contains($0.id) }
        #expect(soakLive.map(\.id) == [finalId], "\(tag) one live connection of the soak client: \(soakLive.map(\.id))")
        var counts: [String: Int] = [:]
        for connection in live {
            for channel in connection.channels where !channel.hasPrefix("#") { counts[channel, default: 0] += 1 }
        }
        for name in Tests.all {
            let expected = name.hasPrefix("presence-") ? 2 : 1
            #expect(counts[name] == expected, "\(tag) \(name) subscribed \(counts[name] ?? 0) times on the sandbox")
        }

        // Every handler fires on a fresh event, exactly once.
        _ = await publishAndAwait(Tests.all, label: "final")
        await client.bird.settle()
        for (name, seqs) in deliveries.snapshot {
            #expect(Set(seqs).count == seqs.count, "\(tag) duplicate deliveries on \(name): \(seqs)")
            #expect(
                Set(seqs) == Set(published[name] ?? []),
                "\(tag) \(name): received \(seqs), published \(published[name] ?? [])")
        }

        // Private and presence channels were authorized once for each connection they were
        // subscribed on, and only ever for ids the client really had.
        let requests = client.authLog.all.filter { $0.channel != nil }
        var perId: [String: [String: Int]] = [:]
        for request in requests {
            guard let id = request.connectionId, let channel = request.channel else { continue }
            perId[id, default: [:]][channel, default: 0] += 1
        }
        for id in Set(perId.keys) {
            #expect(soakIds.contains(id), "\(tag) an auth request for \(id), which was never this client's connection")
        }
        #expect(recoveredIds.count >= 2, "\(tag) recovered \(recoveredIds.count) times")
        for id in recoveredIds {
            let forId = perId[id] ?? [:]
            let wrong = Tests.signed.filter { forId[$0] != 1 }
            #expect(
                wrong.isEmpty,
                "\(tag) on \(id), channels not authorized exactly once: \(wrong.prefix(5)) \(wrong.prefix(5).map { forId[$0] ?? 0 })"
            )
        }

        // Rosters, seen from both clients.
        let expectedMembers: [String: JSONValue] = ["soak": ["name": "soak"], "watcher": ["name": "watcher"]]
        await eventually("\(tag) the watcher's rosters show soak and watcher") {
            Tests.presenceChannels.allSatisfy {
                (watcher.bird.channel(named: $0) as? PresenceChannel)?.members == expectedMembers
            }
        }
        for name in Tests.presenceChannels {
            let room = client.bird.channel(named: name) as? PresenceChannel
            #expect(room?.members == expectedMembers, "\(tag) \(name) roster: \(String(describing: room?.members))")
            #expect(room?.myId == "soak")
            #expect(room?.count == 2)
        }
        #expect(recorder.errors.isEmpty, "\(tag) no onError during the soak: \(recorder.errors.prefix(5))")
        #expect(!recorder.states.contains(.failed))
    }
}
