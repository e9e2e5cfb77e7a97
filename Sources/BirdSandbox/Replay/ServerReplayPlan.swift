import BirdWire

/// The server side of a recording, cut into connection segments (docs/RECORDING.md, "Replay
/// against a client"). Pure: built from a ``ServerReplaySource`` with no I/O, played by the sandbox.
///
/// A segment runs from a `state` line whose `current` is `connecting` to the next `state` line
/// other than `connecting → connected`; that line's cause says how the segment ends. Within a
/// segment, `wire` `in` entries become sends at their recorded offsets from the previous step and
/// `wire` `out` entries become expectations; ping/pong entries are not steps (the player answers
/// pings itself), except a server-sent ping, which is replayed.
public struct ServerReplayPlan: Sendable, Equatable {
    /// Seconds an expectation waits beyond its recorded gap before the replay goes on.
    public static let defaultExpectGrace: Double = 10
    /// The largest binary frame a `<binary message, N bytes>` entry may ask for (16 MiB); an
    /// entry asking for more is skipped with a warning.
    public static let maxBinaryBytes = 16 << 20

    /// The dialect of the recording's header (the sandbox speaks it unless `--dialect` overrides).
    public var dialect: Dialect
    /// The segments, in order: the k-th accepted connection plays `segments[k - 1]`.
    public var segments: [ServerReplaySegment]
    /// Things the reader and planner skipped, for the log.
    public var warnings: [String]

    /// A plan from its parts.
    public init(dialect: Dialect = .bird, segments: [ServerReplaySegment], warnings: [String] = []) {
        self.dialect = dialect
        self.segments = segments
        self.warnings = warnings
    }

    /// Plans `source`; an expectation waits its recorded gap plus `expectGrace` seconds
    /// (a negative or non-finite grace counts as zero, one over a day as a day).
    public init(source: ServerReplaySource, expectGrace: Double = ServerReplayPlan.defaultExpectGrace) {
        let expectGrace = expectGrace.isFinite ? min(max(0, expectGrace), 86_400) : 0
        var segments: [ServerReplaySegment] = []
        var warnings = source.warnings
        var open: (start: ServerReplaySource.State, wires: [ServerReplaySource.Wire])?
        var stray = 0
        // Wire entries before the first `connecting` line belong to the first connection: an
        // observer registered after the client started can see the handshake before the
        // (replayed) first state change.
        var leading: [ServerReplaySource.Wire] = []
        func close(with state: ServerReplaySource.State?) {
            guard let current = open else { return }
            open = nil
            if state == nil, current.wires.isEmpty {
                warnings.append(
                    "line \(current.start.line): the recording ends while connecting; that attempt is not replayed")
                return
            }
            segments.append(
                Self.segment(
                    number: segments.count + 1, start: current.start, wires: current.wires, end: state,
                    grace: expectGrace, warnings: &warnings))
        }
        for entry in source.entries {
            switch entry {
            case .wire(let wire):
                if open != nil {
                    open?.wires.append(wire)
                } else if segments.isEmpty {
                    leading.append(wire)
                } else {
                    stray += 1
                }
            case .state(let state):
                if open != nil {
                    if state.previous == "connecting" && state.current == "connected" { continue }
                    close(with: state)
                }
                if state.current == "connecting" {
                    var start = state
                    if let first = leading.first { start.mono = min(start.mono, first.mono) }
                    open = (start, leading)
                    leading = []
                }
            }
        }
        close(with: nil)
        stray += leading.count
        if stray > 0 { warnings.append("\(stray) wire entr\(stray == 1 ? "y" : "ies") outside a connection skipped") }
        self.init(dialect: source.dialect, segments: segments, warnings: warnings)
    }

    /// Reads and plans the recording at `path`.
    public static func load(path: String, expectGrace: Double = ServerReplayPlan.defaultExpectGrace)
        throws(ServerReplayError) -> ServerReplayPlan
    {
        ServerReplayPlan(source: try ServerReplaySource.load(path: path), expectGrace: expectGrace)
    }

    /// One line for the log: how many segments of which kind.
    public var summary: String {
        let refused = segments.filter(\.isRefused).count
        return "\(segments.count) segment\(segments.count == 1 ? "" : "s")"
            + (refused > 0 ? " (\(refused) refused)" : "") + ", \(dialect) dialect"
    }

    // MARK: Planning one segment

    private static func segment(
        number: Int, start: ServerReplaySource.State, wires: [ServerReplaySource.Wire],
        end state: ServerReplaySource.State?,
        grace: Double, warnings: inout [String]
    ) -> ServerReplaySegment {
        var steps: [ServerReplayStep] = []
        var connectionId: String?
        var last = start.mono  // mono of the previous step
        var lastInbound: Double?
        func gap(_ mono: Double) -> Double { max(0, (mono - last) / 1000) }
        for wire in wires {
            let kind = ServerReplayPing.kind(ofText: wire.text)
            if wire.inbound {
                lastInbound = wire.mono
                if kind == .pong { continue }  // answers to the client's pings: the player makes its own
                if let size = binarySize(wire.text) {
                    guard let bytes = size, bytes <= maxBinaryBytes else {
                        warnings.append(
                            "line \(wire.line): a binary message of more than \(maxBinaryBytes) bytes (or an unreadable "
                                + "size) is not replayed")
                        continue
                    }
                    steps.append(.sendBinary(bytes: bytes, after: gap(wire.mono)))
                } else {
                    if connectionId == nil { connectionId = handshakeId(wire.text) }
                    steps.append(.send(text: wire.text, after: gap(wire.mono)))
                }
                last = wire.mono
            } else {
                if kind != nil { continue }  // the client's pings are answered, its pongs absorbed
                guard let expectation = ServerReplayExpectation(message: wire.text) else {
                    warnings.append("line \(wire.line): a client message that is not protocol JSON is not expected")
                    continue
                }
                steps.append(.expect(expectation, timeout: gap(wire.mono) + grace))
                last = wire.mono
            }
        }
        let end: ServerReplayEnd
        var endMono = state?.mono ?? last
        if let state {
            end = Self.end(for: state)
            // Silence starts after the last thing the server sent (a pong included): before
            // that the recorded edge still answered.
            if end == .silence { endMono = max(last, lastInbound ?? start.mono) }
        } else {
            end = .stayOpen
        }
        return ServerReplaySegment(
            number: number, line: start.line, connectionId: connectionId, steps: steps, end: end,
            endAfter: max(0, (endMono - last) / 1000), cause: state?.cause)
    }

    /// The end a `state` line's cause asks for (docs/RECORDING.md). The inspector writes causes
    /// as `server closed: CODE MEANING (REASON)`, `pong timeout`, `network error: …`,
    /// `client closed: …`, `socket dropped`, `disconnect() called`, …; the client library's own
    /// descriptions (`closed by server: CODE REASON`) are read too.
    static func end(for state: ServerReplaySource.State) -> ServerReplayEnd {
        let cause = state.cause ?? ""
        for prefix in ["server closed:", "closed by server:"] where cause.hasPrefix(prefix) {
            let rest = cause.dropFirst(prefix.count).drop(while: { $0 == " " })
            let digits = rest.prefix(while: \.isNumber)
            guard let code = state.closeCode ?? Int(digits) else { return .awaitClientClose }
            if code == 1006 { return .drop }
            let tail = String(rest.dropFirst(digits.count))
            let reason =
                state.closeReason
                ?? (prefix == "server closed:"
                    ? Self.inspectorReason(tail, code: code) : Self.clientReason(tail, code: code))
            return .close(code: Self.sendable(code), reason: reason)
        }
        if cause.hasPrefix("pong timeout") { return .silence }
        if cause.hasPrefix("network error") { return .drop }
        if cause.isEmpty, let code = state.closeCode {
            return code == 1006 ? .drop : .close(code: Self.sendable(code), reason: state.closeReason ?? "")
        }
        return .awaitClientClose
    }

    /// The reason in ` MEANING (REASON)`: the parenthesized group at the end, after the meaning
    /// this sandbox knows, or else the last balanced group (a recorder with other meaning texts).
    private static func inspectorReason(_ text: String, code: Int) -> String {
        let meaning = " " + CloseCode.meaning(code)
        if text.hasPrefix(meaning) {
            let tail = text.dropFirst(meaning.count)
            return tail.hasPrefix(" (") && tail.hasSuffix(")") ? String(tail.dropFirst(2).dropLast()) : ""
        }
        guard text.hasSuffix(")") else { return "" }
        var depth = 0
        for index in text.indices.reversed() {
            if text[index] == ")" { depth += 1 }
            if text[index] == "(" {
                depth -= 1
                if depth == 0 { return String(text[text.index(after: index)..<text.index(before: text.endIndex)]) }
            }
        }
        return ""
    }

    /// The reason in ` REASON` (the client library writes the meaning when there is no reason).
    private static func clientReason(_ text: String, code: Int) -> String {
        let reason = String(text.drop(while: { $0 == " " }))
        return reason == CloseCode.meaning(code) ? "" : reason
    }

    /// Codes a close frame may carry; others (1005, 1015, out of range) become 1000.
    private static func sendable(_ code: Int) -> Int {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: return code
        default: return 1000
        }
    }

    /// For the client tap's `<binary message, N bytes>`: `N` when it is decimal digits that fit an
    /// `Int`, `.some(nil)` when it is not; nil for any other text.
    private static func binarySize(_ text: String) -> Int?? {
        let head = "<binary message, ", tail = " bytes>"
        guard text.hasPrefix(head), text.hasSuffix(tail), text.utf8.count >= head.utf8.count + tail.utf8.count else {
            return nil
        }
        let digits = text.utf8.dropFirst(head.utf8.count).dropLast(tail.utf8.count)
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return .some(nil) }
        return .some(Int(String(decoding: digits, as: UTF8.self)))
    }

    /// The connection id of a handshake text, in either dialect.
    private static func handshakeId(_ text: String) -> String? {
        guard let message = try? WireMessage.decode(text), message.event.hasSuffix(":connection_established"),
            let data = message.data?.object
        else { return nil }
        return (data["connection_id"] ?? data["socket_id"])?.stringValue
    }
}

/// Ping and pong messages of either dialect.
enum ServerReplayPing: Equatable {
    case ping(prefix: String)
    case pong

    /// Whether `text` is a `bird:`/`pusher:` ping or pong.
    static func kind(ofText text: String) -> ServerReplayPing? {
        guard let message = try? WireMessage.decode(text) else { return nil }
        return kind(ofEvent: message.event)
    }

    static func kind(ofEvent event: String) -> ServerReplayPing? {
        for dialect in Dialect.allCases {
            if event == ProtocolEvent.ping.wireName(dialect) { return .ping(prefix: dialect.eventPrefix) }
            if event == ProtocolEvent.pong.wireName(dialect) { return .pong }
        }
        return nil
    }
}
