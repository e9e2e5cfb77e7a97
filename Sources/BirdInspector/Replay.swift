// `--replay FILE` in the TUI: the recording's entries drive the same model as a live session.
// Pure: the driver only sends ticks (wall time) and keys; playback time is kept here.

import Foundation

/// Playback of a recording (the model's `replay`).
public struct ReplayState: Sendable {
    /// Speeds `+` and `-` step through (0 — "max" — is reachable only with `--speed 0`).
    public static let speeds: [Double] = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]

    /// The file name shown in the status.
    public var file: String
    /// The entries, in file order.
    public var entries: [ReplayEntry]
    /// The header's `ts`.
    public var startedAt: Date
    /// Entries played so far (the next one is `entries[position]`).
    public var position = 0
    /// Playback speed (0: no waits).
    public var speed: Double
    /// Whether playback is paused.
    public var paused = false
    /// Playback position in recorded milliseconds (`mono_ms`).
    public var clockMs: Double = 0
    /// Wall time of the last tick.
    public var lastTick: Date?
    /// Lines skipped when the file was read.
    public var problems: [TranscriptProblem]

    /// Playback of `recording` from its start.
    public init(file: String, recording: Recording, speed: Double) {
        self.file = file
        entries = recording.entries
        startedAt = recording.startedAt
        self.speed = speed
        problems = recording.problems
    }

    /// Whether every entry has been played.
    public var finished: Bool { position >= entries.count }

    /// "×4", "×0.5", "×max".
    public var speedText: String {
        if speed == 0 { return "×max" }
        return speed == speed.rounded() ? "×\(Int(speed))" : "×\(String(format: "%g", speed))"
    }

    /// "replay FILE · entry N/M · ×speed" plus "· paused" or "· replay finished", and the number
    /// of lines skipped when there were any.
    public var statusText: String {
        var s = "replay \(file) · entry \(position)/\(entries.count) · \(speedText)"
        if finished {
            s += " · replay finished"
        } else if paused {
            s += " · paused"
        }
        if !problems.isEmpty { s += " · \(problems.count) bad line\(problems.count == 1 ? "" : "s") skipped" }
        return s
    }

    /// The time playback stands at: the last played entry's `ts` plus the playback time since it.
    var virtualNow: Date {
        guard position > 0 else { return startedAt.addingTimeInterval(clockMs / 1000) }
        let last = entries[position - 1]
        return last.time.addingTimeInterval(max(0, clockMs - last.monoMs) / 1000)
    }
}

extension Model {
    /// A model replaying `recording` (from `--replay FILE`): the edge settings come from the header.
    public init(replaying recording: Recording, file: String, speed: Double, size: Size = Size(width: 80, height: 24),
                utcOffsetSeconds: Int = 0, logSize: Int = 10_000) {
        let h = recording.header
        let config = InspectorConfig(host: h.host, port: h.port, tls: h.tls, dialect: h.dialect, logSize: logSize,
                                     utcOffsetSeconds: utcOffsetSeconds, edgeNote: "recorded by \(h.tool)")
        self.init(config: config, now: recording.startedAt, size: size)
        replay = ReplayState(file: file, recording: recording, speed: speed)
        if let first = recording.problems.first {
            let more = recording.problems.count > 1 ? " (and \(recording.problems.count - 1) more)" : ""
            flash = Flash(text: "skipped \(first)\(more)", isError: true, until: .distantFuture)
        }
    }
}

extension Inspector {
    /// A tick while replaying: plays the entries that are due at the speed in force.
    static func replayTick(_ now: Date, _ model: inout Model) {
        guard var r = model.replay else { return }
        if let last = r.lastTick, !r.paused, !r.finished, r.speed > 0 {
            r.clockMs += max(0, now.timeIntervalSince(last)) * 1000 * r.speed
        }
        r.lastTick = now
        model.replay = r
        if !r.paused {
            play(&model) { entry in r.speed == 0 || entry.monoMs <= r.clockMs }
        }
        syncReplayClock(&model)
        if model.flash?.until == .distantFuture { model.flash?.until = now.addingTimeInterval(flashSeconds * 2) }
    }

    /// Plays entries from the current position while `due` says so.
    static func play(_ model: inout Model, while due: (ReplayEntry) -> Bool) {
        while let r = model.replay, !r.finished {
            let entry = r.entries[r.position]
            guard due(entry) else { return }
            model.replay?.position += 1
            model.replay?.clockMs = max(r.clockMs, entry.monoMs)
            if let event = entry.event { apply(event, at: entry.time, to: &model) }
            if model.replay?.finished == true { say("replay finished · q quits", &model) }
        }
    }

    /// `model.now` follows playback time, so "since", countdowns and progress bars run at the
    /// replay's speed.
    static func syncReplayClock(_ model: inout Model) {
        guard let r = model.replay else { return }
        model.now = r.virtualNow
    }

    /// The keys of the Replay scope.
    static func replayKey(_ binding: KeyBinding, _ model: inout Model) -> [Command] {
        if let why = binding.unavailable(model) {
            refuse("\(binding.label): \(why)", &model)
            return []
        }
        guard let r = model.replay else { return [] }
        model.flash = nil
        switch binding.action {
        case .playPause:
            model.replay?.paused.toggle()
            say(r.paused ? "playing · \(r.speedText)" : "paused · . steps one entry", &model)
        case .step:
            let entry = r.entries[r.position]
            play(&model) { $0.line == entry.line }
            if model.replay?.finished != true { say("entry \(r.position + 1)/\(r.entries.count): \(entry.summary)", &model) }
        case .nextState:
            guard let target = r.entries[r.position...].firstIndex(where: { $0.type == "state" }) else { return [] }
            let line = r.entries[target].line
            play(&model) { $0.line <= line }
            if model.replay?.finished != true {
                say("entry \(target + 1)/\(r.entries.count): \(r.entries[target].summary)", &model)
            }
        case .faster, .slower:
            let speed = nextSpeed(r.speed, faster: binding.action == .faster)
            model.replay?.speed = speed
            say("speed \(model.replay?.speedText ?? "")", &model)
        default:
            break
        }
        syncReplayClock(&model)
        return []
    }

    /// The next speed up or down the ladder from `speed`.
    static func nextSpeed(_ speed: Double, faster: Bool) -> Double {
        let ladder = ReplayState.speeds
        if speed == 0 { return faster ? 0 : ladder.last! }
        if faster { return ladder.first { $0 > speed } ?? ladder.last! }
        return ladder.last { $0 < speed } ?? ladder.first!
    }

    /// Why a replay key cannot be used now, or nil.
    static func replayProblem(_ model: Model, _ action: Action) -> String? {
        guard let r = model.replay else { return "only while replaying a recording (--replay FILE)" }
        switch action {
        case .playPause: return r.finished ? "replay finished" : nil
        case .step:
            if r.finished { return "replay finished" }
            return r.paused ? nil : "only while paused (Space pauses)"
        case .nextState:
            if r.finished { return "replay finished" }
            return r.entries[r.position...].contains { $0.type == "state" } ? nil : "no state change left in the recording"
        case .faster:
            return r.speed == 0 || r.speed >= ReplayState.speeds.last! ? "already at the fastest speed" : nil
        case .slower:
            return r.speed != 0 && r.speed <= ReplayState.speeds.first! ? "already at the slowest speed" : nil
        default: return nil
        }
    }
}
