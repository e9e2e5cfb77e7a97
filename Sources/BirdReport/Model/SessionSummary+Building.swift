import BirdRecording

import BirdWire

extension SessionSummary {
    /// Summarises a recording: one pass over its lines in order. Unknown line types are counted
    /// and otherwise ignored; a known line with a key missing contributes what it has.
    public init(recording: Recording) {
        var builder = SummaryBuilder(header: recording.header)
        for line in recording.lines { builder.take(line) }
        self = builder.finish(skipped: recording.problems)
    }
}

/// The walk behind ``SessionSummary/init(recording:)``: the summary so far plus what is still
/// open (the current state's span, an outage, per-channel gaps, an unanswered ping).
struct SummaryBuilder {
    private var summary: SessionSummary
    private var now = 0.0
    private var state = SessionState(.initialized)
    private var spanStart = 0.0
    private var spanConnectionId: String?
    private var outage: (startMs: Double, reason: EndReason)?
    private var progress: [ChannelProgress] = []
    private var channelIndex: [String: Int] = [:]
    private var pendingPing: Int?
    /// The last end, until the next state change: a `retry` line belongs to it.
    private var endAwaitingRetry: Int?
    private var unknown: [String: Int] = [:]
    private var skipped: [RecordingProblem] = []

    /// What a channel's walk keeps besides its summary.
    private struct ChannelProgress {
        var summary: ChannelSummary
        var subscribed = false
        var gapStart: Double?
        var lastEventMs: Double?
        var eventTimes: [Double] = []
        var names: [String: Int] = [:]
    }

    /// The line types of docs/RECORDING.md this builder reads or knowingly ignores.
    static let knownTypes: Set<String> = [
        "recording", "state", "retry", "subscribed", "subscription_error", "event", "members", "member_added",
        "member_removed", "connection_count", "signin", "signin_error", "error", "sent", "command_error", "wire",
        "auth", "network", "scenario", "dropped", "endpoint", "rtt",
    ]

    init(header: RecordingHeader) {
        summary = SessionSummary(header: header)
        for name in header.channels { _ = channel(name) }
    }

    mutating func take(_ line: RecordingLine) {
        now = line.monoMs
        switch line.type {
        case "state": takeState(line)
        case "retry": takeRetry(line)
        case "subscribed", "subscription_error", "event", "sent", "members", "member_added", "member_removed",
            "connection_count":
            takeChannelLine(line)
        case "auth": takeAuth(line)
        case "error", "signin_error", "command_error": takeError(line)
        case "signin": summary.signinCount += 1
        case "wire": takeWire(line)
        case "network", "scenario", "dropped": takeMarker(line)
        case "recording", "endpoint", "rtt": break
        default: unknown[line.type, default: 0] += 1
        }
    }

    mutating func finish(skipped readerSkipped: [RecordingProblem]) -> SessionSummary {
        let end = now
        summary.endMs = end
        summary.spans.append(
            StateSpan(state: state, startMs: spanStart, endMs: end, connectionId: spanConnectionId, isLast: true))
        if let open = outage {
            summary.outages.append(Outage(startMs: open.startMs, endMs: end, recovered: false, reason: open.reason))
        }
        summary.bucketMs = TimeBuckets.width(forDurationMs: end)
        let count = TimeBuckets.count(durationMs: end, width: summary.bucketMs)
        summary.channels = progress.map { p in
            var channel = p.summary
            if let start = p.gapStart { channel.gaps.append(Gap(startMs: start, endMs: end, open: true)) }
            channel.buckets = Array(repeating: 0, count: count)
            for t in p.eventTimes {
                channel.buckets[TimeBuckets.index(atMs: t, width: summary.bucketMs, count: count)] += 1
            }
            channel.eventNames = p.names.map { NameCount(name: $0.key, count: $0.value) }
                .sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
            return channel
        }
        summary.unknownTypes = unknown.map { NameCount(name: $0.key, count: $0.value) }.sorted { $0.name < $1.name }
        summary.skipped = (readerSkipped + skipped).sorted { $0.line < $1.line }
        return summary
    }

    // MARK: - Connection

    private mutating func takeState(_ line: RecordingLine) {
        guard let currentName = line.string("current") else {
            skipped.append(RecordingProblem(line: line.number, type: line.type, reason: "state line without current"))
            return
        }
        let next = SessionState(name: currentName)
        let recordedPrevious = SessionState(name: line.string("previous"))
        let previous = recordedPrevious == .unknown ? state : recordedPrevious
        let cause = line.string("cause")
        let code = line.int("close_code")
        let connectionId = line.string("connection_id")
        summary.changes.append(
            StateChange(
                atMs: now, previous: previous, current: next, cause: cause, closeCode: code,
                connectionId: connectionId))
        summary.spans.append(StateSpan(state: state, startMs: spanStart, endMs: now, connectionId: spanConnectionId))
        endAwaitingRetry = nil

        if previous.known == .connected, next.known != .connected {
            var reason = EndReason(closeCode: code, cause: cause)
            if next.known == .disconnected, code == nil { reason = .disconnect }
            summary.ends.append(
                ConnectionEnd(atMs: now, from: SessionState(.connected), to: next, reason: reason, cause: cause))
            if reason != .disconnect, outage == nil { outage = (now, reason) }
            endAwaitingRetry = summary.ends.count - 1
            connectionEnded()
        } else if previous.known == .connecting, next.known == .unavailable || next.known == .failed {
            let reason = EndReason(closeCode: code, cause: cause)
            summary.ends.append(
                ConnectionEnd(atMs: now, from: SessionState(.connecting), to: next, reason: reason, cause: cause))
            endAwaitingRetry = summary.ends.count - 1
            connectionEnded()
        }
        if next.known == .connected, let open = outage {
            summary.outages.append(Outage(startMs: open.startMs, endMs: now, recovered: true, reason: open.reason))
            outage = nil
        }
        state = next
        spanStart = now
        spanConnectionId = next.known == .connected ? connectionId : nil
    }

    /// Subscriptions belong to a connection: every subscribed channel starts a gap.
    private mutating func connectionEnded() {
        pendingPing = nil
        for i in progress.indices where progress[i].subscribed {
            progress[i].subscribed = false
            progress[i].gapStart = now
            progress[i].lastEventMs = nil
        }
    }

    private mutating func takeRetry(_ line: RecordingLine) {
        guard let recorded = line.number("in_ms") else { return }
        let wait = min(max(recorded, 0), Double(RecordingFormat.maxMonoMs))
        let attempt = line.int("attempt")
        summary.retries.append(RetryWait(atMs: now, waitMs: wait, attempt: attempt, cause: line.string("cause")))
        if let i = endAwaitingRetry {
            summary.ends[i].retryWaitMs = wait
            summary.ends[i].retryAttempt = attempt
            endAwaitingRetry = nil
        }
    }

    private mutating func takeWire(_ line: RecordingLine) {
        summary.wireCount += 1
        guard let text = line.string("text") else { return }
        switch line.string("direction") {
        case "in":
            if let ping = pendingPing {
                summary.pings[ping].answered = true
                pendingPing = nil
            }
        case "out":
            // Only pings and unsubscribes matter here; parse nothing else.
            guard text.contains("ping") || text.contains("unsubscribe"),
                let message = try? JSONValue(parsing: text), let event = message["event"]?.stringValue
            else { return }
            if event.hasSuffix(":ping") {
                summary.pings.append(Ping(atMs: now, answered: false))
                pendingPing = summary.pings.count - 1
            } else if event.hasSuffix(":unsubscribe"), let name = message["data"]?["channel"]?.stringValue {
                // A deliberate unsubscribe is not a gap.
                let i = channel(name)
                progress[i].subscribed = false
                progress[i].gapStart = nil
                progress[i].lastEventMs = nil
            }
        default:
            break
        }
    }

    // MARK: - Channels

    /// The index of `name`'s progress, made on first sight.
    private mutating func channel(_ name: String) -> Int {
        if let i = channelIndex[name] { return i }
        progress.append(ChannelProgress(summary: ChannelSummary(name: name)))
        channelIndex[name] = progress.count - 1
        return progress.count - 1
    }

    private mutating func takeChannelLine(_ line: RecordingLine) {
        guard let name = line.string("channel") else { return }
        let i = channel(name)
        switch line.type {
        case "subscribed":
            progress[i].summary.subscribedAtMs.append(now)
            if let start = progress[i].gapStart {
                progress[i].summary.gaps.append(
                    Gap(
                        startMs: start, endMs: now, continuity: line.string("continuity"),
                        missed: line.int("missed").flatMap { $0 >= 0 ? $0 : nil }))
                progress[i].gapStart = nil
            }
            progress[i].subscribed = true
            progress[i].lastEventMs = nil
        case "subscription_error":
            let type =
                line.string("error_type") ?? line.string("type").flatMap { $0 == "subscription_error" ? nil : $0 }
            let status = line.int("status")
            let message = line.string("message")
            progress[i].summary.errors.append(ChannelError(atMs: now, type: type, status: status, message: message))
            summary.errors.append(
                ReportedError(
                    atMs: now, timestamp: line.timestamp, kind: line.type, code: status, channel: name,
                    message: message ?? type ?? "subscription error", detail: type))
        case "event":
            progress[i].summary.eventCount += 1
            progress[i].eventTimes.append(now)
            progress[i].names[line.string("event") ?? "?", default: 0] += 1
            if progress[i].subscribed {
                if let last = progress[i].lastEventMs {
                    let quiet = now - last
                    progress[i].summary.longestQuietMs = max(progress[i].summary.longestQuietMs ?? 0, quiet)
                }
                progress[i].lastEventMs = now
            }
        case "sent":
            progress[i].summary.sentCount += 1
        default:
            break
        }
    }

    // MARK: - Auth, errors, markers

    private mutating func takeAuth(_ line: RecordingLine) {
        summary.auth.append(
            AuthRequest(
                atMs: now, timestamp: line.timestamp, kind: line.string("kind") ?? "channel",
                endpoint: line.string("endpoint"), channel: line.string("channel"), status: line.int("status"),
                error: line.string("error"), durationMs: line.number("ms")))
    }

    private mutating func takeError(_ line: RecordingLine) {
        let message = line.string("message") ?? line.type
        switch line.type {
        case "error":
            summary.errors.append(
                ReportedError(
                    atMs: now, timestamp: line.timestamp, kind: line.type, code: line.int("code"),
                    channel: line.string("channel"), message: message, detail: line.string("reason")))
        case "command_error":
            summary.errors.append(
                ReportedError(
                    atMs: now, timestamp: line.timestamp, kind: line.type, message: message,
                    detail: line.string("command")))
        default:
            summary.errors.append(
                ReportedError(atMs: now, timestamp: line.timestamp, kind: line.type, message: message))
        }
    }

    private mutating func takeMarker(_ line: RecordingLine) {
        guard let kind = Marker.Kind(rawValue: line.type) else { return }
        var label: String
        if kind == .dropped, let count = line.int("count") {
            label = "the recorder dropped \(count) entr\(count == 1 ? "y" : "ies")"
            if let wire = line.int("wire"), wire > 0 { label += " (\(wire) wire)" }
        } else {
            label = Self.scalarFields(line.fields.object)
        }
        summary.markers.append(Marker(atMs: now, timestamp: line.timestamp, kind: kind, label: label))
    }

    /// `key: value` for each string, number and Boolean member but the common ones.
    static func scalarFields(_ object: JSONObject) -> String {
        var parts: [String] = []
        for (key, value) in object where !["ts", "mono_ms", "type"].contains(key) {
            switch value {
            case .string(let s): parts.append("\(key): \(s)")
            case .number(let n): parts.append("\(key): \(n.text)")
            case .bool(let b): parts.append("\(key): \(b)")
            default: continue
            }
        }
        return parts.joined(separator: ", ")
    }
}
