import BirdWire

/// Plays a ``ServerReplayPlan`` on the connections it is given: the k-th accepted connection is driven
/// by segment k instead of the protocol edge; connections beyond the last segment are declined
/// (the sandbox's edge serves them).
///
/// Not thread-safe: it lives on the sandbox's serial queue, and `scheduler` must run its work on
/// that queue (tests inject a virtual scheduler and in-memory links). Each step logs one line.
final class ServerReplayer: @unchecked Sendable {
    let plan: ServerReplayPlan
    private let scheduler: any ScenarioScheduler
    private let log: (String) -> Void
    private var accepted = 0
    private var sessions: [Int: Session] = [:]
    private var stopped = false

    /// What a driven connection is doing.
    enum Phase: Equatable {
        /// Running its steps, or waiting for its end.
        case playing
        /// Ended by a pong timeout: nothing is read or answered.
        case silent
        /// Waiting for the client to close, as it did in the recording.
        case waitingForClient
        /// The last segment of a recording that ended with the connection open.
        case open
        /// Closed or dropped by the player; the transport's close is still to come.
        case closing
    }

    private enum Timer: Sendable {
        case step, expectTimeout, end
    }

    private final class Session {
        let segment: ServerReplaySegment
        let link: any EdgeLink
        var index = 0
        var phase = Phase.playing
        /// Client messages that arrived before the step expecting them.
        var early: [ServerReplayExpectation: Int] = [:]
        var waiting: ServerReplayExpectation?
        /// Bumped whenever a pending timer must no longer fire.
        var generation = 0

        init(segment: ServerReplaySegment, link: any EdgeLink) {
            self.segment = segment
            self.link = link
        }
    }

    init(plan: ServerReplayPlan, scheduler: any ScenarioScheduler, log: @escaping (String) -> Void) {
        self.plan = plan
        self.scheduler = scheduler
        self.log = log
    }

    /// The phase of the connection playing segment `number`, while it is open.
    func phase(ofSegment number: Int) -> Phase? { sessions[number]?.phase }

    /// How many connections the player still drives.
    var openCount: Int { sessions.count }

    // MARK: Transport events

    /// A connection was accepted. Returns the segment number it plays, or nil when the
    /// transcript has no segment left for it (or the player stopped).
    func accept(link: any EdgeLink, remote: String) -> Int? {
        guard !stopped else { return nil }
        accepted += 1
        let number = accepted
        // A silent connection is never closed by the client's side of the handshake (nothing is
        // read): once the client opens a new one, the old one is done.
        for (old, session) in sessions where session.phase == .silent {
            session.phase = .closing
            session.link.drop()
            log("\(prefix(old)): dropped the silent connection (the client opened a new one)")
        }
        let total = plan.segments.count
        guard number <= total else {
            if number == total + 1 {
                log(
                    "replay: connection \(number) from \(remote): the transcript has \(total) segment(s); "
                        + "the sandbox's edge serves this and later connections")
            }
            return nil
        }
        let segment = plan.segments[number - 1]
        let session = Session(segment: segment, link: link)
        sessions[number] = session
        log("\(prefix(number)): connection from \(remote): \(segment.summary)")
        if segment.isRefused {
            session.phase = .closing
            link.drop()
            log("\(prefix(number)): dropped right after accepting")
            finishedIfLast(number)
            return number
        }
        advance(session)
        return number
    }

    /// A text message arrived on the connection playing segment `number`.
    func received(text: String, segment number: Int) {
        guard let session = sessions[number], session.phase != .silent, session.phase != .closing else { return }
        guard let key = ServerReplayExpectation(message: text) else {
            log("\(prefix(number)): the client sent a message that is not protocol JSON; ignored")
            return
        }
        if let kind = ServerReplayPing.kind(ofEvent: key.event) {
            if case .ping(let eventPrefix) = kind {
                session.link.send(text: WireMessage(event: eventPrefix + "pong", data: .json("{}")).encode())
                log("\(prefix(number)): answered \(key.event) with \(eventPrefix)pong")
            }
            return
        }
        if session.phase == .playing, session.waiting == key {
            session.waiting = nil
            session.generation += 1  // cancels the timeout
            session.index += 1
            log("\(prefix(number)): received \(key)")
            advance(session)
            return
        }
        if session.phase == .playing, expectedLater(key, in: session) > session.early[key, default: 0] {
            session.early[key, default: 0] += 1
            return
        }
        log("\(prefix(number)): unexpected client message \(key) (not in the transcript here); ignored")
    }

    /// A binary message arrived (the protocol is text only): logged, ignored.
    func receivedBinary(segment number: Int) {
        guard let session = sessions[number], session.phase != .silent, session.phase != .closing else { return }
        log("\(prefix(number)): the client sent a binary message; ignored")
    }

    /// The transport reports the connection closed (either side).
    func closed(segment number: Int, code: Int, reason: String) {
        guard let session = sessions.removeValue(forKey: number) else { return }
        session.generation += 1
        let by = "the client closed with \(code)" + (reason.isEmpty ? "" : " \"\(reason)\"")
        switch session.phase {
        case .closing:
            break  // the player's own close or drop, already logged
        case .waitingForClient:
            log("\(prefix(number)): \(by), as recorded")
        case .silent:
            log("\(prefix(number)): \(by) (the silent connection)")
        case .open:
            log("\(prefix(number)): \(by) (the transcript had ended)")
        case .playing:
            let steps = session.segment.steps.count
            log(
                "\(prefix(number)): mismatch: \(by) at step \(min(session.index + 1, steps))/\(steps); "
                    + "the recording went on to \(session.segment.end.summary)")
            finishedIfLast(number)
        }
    }

    /// Closes every driven connection with `code` (the sandbox is stopping); nothing more is played.
    func stop(code: Int, reason: String) {
        guard !stopped else { return }
        stopped = true
        for number in sessions.keys.sorted() {
            guard let session = sessions[number] else { continue }
            session.generation += 1
            if session.phase == .closing { continue }
            session.phase = .closing
            session.link.close(code: code, reason: reason)
        }
        log("replay: stopped")
    }

    // MARK: Steps

    private func advance(_ session: Session) {
        let number = session.segment.number
        let steps = session.segment.steps
        while session.phase == .playing, session.index < steps.count {
            switch steps[session.index] {
            case .send(_, let after), .sendBinary(_, let after):
                if after > 0 {
                    schedule(session, after: after, .step)
                    return
                }
                performSend(session)
                session.index += 1
            case .expect(let key, let timeout):
                if let count = session.early[key], count > 0 {
                    session.early[key] = count > 1 ? count - 1 : nil
                    session.index += 1
                    log("\(prefix(number)): received \(key) (it arrived earlier, out of order)")
                    continue
                }
                session.waiting = key
                schedule(session, after: timeout, .expectTimeout)
                return
            }
        }
        guard session.phase == .playing else { return }
        if session.segment.endAfter > 0 {
            schedule(session, after: session.segment.endAfter, .end)
        } else {
            performEnd(session)
        }
    }

    private func performSend(_ session: Session) {
        let number = session.segment.number
        switch session.segment.steps[session.index] {
        case .send(let text, _):
            session.link.send(text: text)
            let key = ServerReplayExpectation(message: text)
            var line = "sent \(key?.description ?? "a text that is not protocol JSON (as recorded)")"
            if let id = session.segment.connectionId, key?.event.hasSuffix(":connection_established") == true {
                line += " (connection id \(id))"
            }
            log("\(prefix(number)): \(line)")
        case .sendBinary(let bytes, _):
            session.link.sendRaw(binary: true, payload: [UInt8](repeating: 0, count: bytes))
            log("\(prefix(number)): sent a binary message of \(bytes) bytes (as recorded)")
        case .expect:
            break
        }
    }

    private func performEnd(_ session: Session) {
        let number = session.segment.number
        let recorded = session.segment.cause.map { " (recorded: \($0))" } ?? ""
        switch session.segment.end {
        case .close(let code, let reason):
            session.phase = .closing
            session.link.close(code: code, reason: reason)
            log("\(prefix(number)): closed with \(code)" + (reason.isEmpty ? "" : " \"\(reason)\""))
        case .drop:
            session.phase = .closing
            session.link.drop()
            log("\(prefix(number)): dropped the TCP connection (no close frame)\(recorded)")
        case .silence:
            session.phase = .silent
            session.link.pauseReading()
            log("\(prefix(number)): went silent: nothing read or answered from now on\(recorded)")
        case .awaitClientClose:
            session.phase = .waitingForClient
            log("\(prefix(number)): waiting for the client to close\(recorded)")
        case .stayOpen:
            session.phase = .open
            log("\(prefix(number)): end of the transcript: the connection stays open (pings answered)")
        }
        finishedIfLast(number)
    }

    private func finishedIfLast(_ number: Int) {
        guard number == plan.segments.count else { return }
        log("replay: all \(number) segment(s) played; later connections are served by the sandbox's edge")
    }

    // MARK: Timers

    private func schedule(_ session: Session, after seconds: Double, _ timer: Timer) {
        session.generation += 1
        let number = session.segment.number
        let generation = session.generation
        scheduler.schedule(after: seconds) { [weak self] in
            self?.fire(number: number, generation: generation, timer)
        }
    }

    private func fire(number: Int, generation: Int, _ timer: Timer) {
        guard !stopped, let session = sessions[number], session.generation == generation,
            session.phase == .playing
        else { return }
        switch timer {
        case .step:
            performSend(session)
            session.index += 1
            advance(session)
        case .expectTimeout:
            let steps = session.segment.steps
            if case .expect(let key, let timeout) = steps[session.index] {
                log(
                    "\(prefix(number)): mismatch: expected \(key) within \(Self.seconds(timeout)), "
                        + "not received; going on")
            }
            session.waiting = nil
            session.index += 1
            advance(session)
        case .end:
            performEnd(session)
        }
    }

    // MARK: Helpers

    private func expectedLater(_ key: ServerReplayExpectation, in session: Session) -> Int {
        session.segment.steps[session.index...].reduce(0) { count, step in
            if case .expect(let expected, _) = step, expected == key { return count + 1 }
            return count
        }
    }

    private func prefix(_ number: Int) -> String { "replay: segment \(number)/\(plan.segments.count)" }

    /// `12 s`, `0.5 s`: one decimal, no trailing `.0` (no `Int` conversion: any value prints).
    private static func seconds(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        let text = "\(rounded)"
        return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text) + " s"
    }
}
