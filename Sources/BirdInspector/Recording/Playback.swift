// `--replay FILE` in the TUI: the recording's entries drive the same model as a live session.
// Pure: the driver only sends ticks (wall time) and keys; playback time is kept here.

import BirdRecording
import BirdWire
import Foundation

/// Playback of a recording (the model's `replay`). The entries are not all held: a recording is
/// streamed, and `window` holds the next entries to play (the driver tops it up with `supply`;
/// `Model(replaying: PlaybackRecording…)` puts a whole small recording in it at once).
public struct PlaybackState: Sendable {
    /// Speeds `+` and `-` step through (0 — "max" — is reachable only with `--speed 0`).
    public static let speeds: [Double] = [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]

    /// The file name shown in the status.
    public var file: String
    /// Entries loaded and not played yet, in file order; `window[0]` is entry `windowStart`.
    public private(set) var window: [PlaybackEntry] = []
    /// The index (from 0) of `window[0]` among all entries.
    public private(set) var windowStart = 0
    /// How many entries the recording has.
    public var total: Int
    /// Indices of the `state` entries (for `>`), ascending.
    public var stateEntries: [Int]
    /// The header's `ts`.
    public var startedAt: Date
    /// Entries played so far (the next one is entry `position`).
    public var position = 0
    /// Playback speed (0: no waits).
    public var speed: Double
    /// Whether playback is paused.
    public var paused = false
    /// Playback position in recorded milliseconds (`mono_ms`).
    public var clockMs: Double = 0
    /// Wall time of the last tick.
    public var lastTick: Date?
    /// Lines skipped when the file was read (the first ones; `problemCount` counts them all).
    public var problems: [RecordingProblem]
    /// How many lines were skipped.
    public var problemCount: Int
    /// `.` or `>` asked to play up to and including this entry; it plays as soon as it is loaded.
    public var target: Int?
    /// The last entry played (its time and offset carry playback time on).
    public private(set) var lastPlayed: PlaybackEntry?

    /// Playback of a recording whose entries are supplied as it plays.
    public init(file: String, index: PlaybackIndex, speed: Double) {
        self.file = file
        total = index.total
        stateEntries = index.stateEntries
        startedAt = index.startedAt
        self.speed = speed
        problems = index.problems
        problemCount = index.problemCount
    }

    /// Playback of a whole recording read at once.
    public init(file: String, recording: PlaybackRecording, speed: Double) {
        self.file = file
        total = recording.entries.count
        stateEntries = recording.entries.indices.filter { recording.entries[$0].type == "state" }
        startedAt = recording.startedAt
        self.speed = speed
        problems = recording.problems
        problemCount = recording.problems.count
        window = recording.entries
    }

    /// Whether every entry has been played.
    public var finished: Bool { position >= total }

    /// How many entries past the window the driver should supply next (0: enough loaded).
    public var wanted: Int {
        let loadedEnd = windowStart + window.count
        guard loadedEnd < total, loadedEnd - position < Self.lowWater else { return 0 }
        return min(total - loadedEnd, Self.batch)
    }

    /// Whether playback stands at the end of what is loaded with more to come (so the driver
    /// should supply and tick again before waiting).
    public var starved: Bool { !finished && position >= windowStart + window.count }

    /// The window is topped up when fewer than this many loaded entries are left to play…
    static let lowWater = 512
    /// …by this many.
    static let batch = 2048

    /// Adds the next entries of the file (in order, right after the loaded ones) and forgets the
    /// played ones.
    public mutating func supply(_ entries: [PlaybackEntry]) {
        let played = min(window.count, max(0, position - windowStart))
        window.removeFirst(played)
        windowStart += played
        window += entries.prefix(max(0, total - windowStart - window.count))
    }

    /// Entry `index`, when it is loaded.
    public func entry(at index: Int) -> PlaybackEntry? {
        let i = index - windowStart
        return window.indices.contains(i) ? window[i] : nil
    }

    /// Marks the next entry played.
    mutating func advance(past entry: PlaybackEntry) {
        position += 1
        clockMs = max(clockMs, entry.monoMs)
        lastPlayed = entry
        if position - windowStart > Self.batch { supply([]) }
    }

    /// "×4", "×0.5", "×max".
    public var speedText: String {
        if speed == 0 { return "×max" }
        return speed == speed.rounded() ? "×\(Checked.int(speed))" : "×\(String(format: "%g", speed))"
    }

    /// "replay FILE · entry N/M · ×speed" plus "· paused" or "· replay finished", and the number
    /// of lines skipped when there were any.
    public var statusText: String {
        var s = "replay \(file) · entry \(position)/\(total) · \(speedText)"
        if finished {
            s += " · replay finished"
        } else if paused {
            s += " · paused"
        }
        if problemCount > 0 { s += " · \(problemCount) bad line\(problemCount == 1 ? "" : "s") skipped" }
        return s
    }

    /// The time playback stands at: the last played entry's `ts` plus the playback time since it.
    var virtualNow: Date {
        guard let last = lastPlayed else { return Checked.date(startedAt, plus: clockMs / 1000) }
        return Checked.date(last.time, plus: max(0, clockMs - last.monoMs) / 1000)
    }

    /// The first state entry at or after `index`.
    func nextStateEntry(from index: Int) -> Int? {
        var lo = 0, hi = stateEntries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if stateEntries[mid] < index { lo = mid + 1 } else { hi = mid }
        }
        return lo < stateEntries.count ? stateEntries[lo] : nil
    }
}

/// What a streamed recording holds, from a first pass over the file: the header, how many
/// entries, where the state changes are, and the lines skipped (the first 100 of them kept).
public struct PlaybackIndex: Sendable {
    /// The most problems kept (all are counted).
    public static let keptProblems = 100

    /// The header.
    public var header: RecordingHeader
    /// The header's `ts`.
    public var startedAt: Date
    /// Playable entries.
    public private(set) var total = 0
    /// Indices of the `state` entries.
    public private(set) var stateEntries: [Int] = []
    /// The first lines skipped.
    public private(set) var problems: [RecordingProblem] = []
    /// How many lines were skipped.
    public private(set) var problemCount = 0

    /// An index of nothing yet.
    public init(header: RecordingHeader, startedAt: Date) {
        self.header = header
        self.startedAt = startedAt
    }

    /// Counts one playable entry.
    public mutating func add(_ entry: PlaybackEntry) {
        if entry.type == "state" { stateEntries.append(total) }
        total += 1
    }

    /// Counts one skipped line.
    public mutating func add(_ problem: RecordingProblem) {
        if problems.count < Self.keptProblems { problems.append(problem) }
        problemCount += 1
    }
}

extension Model {
    /// A model replaying a whole `recording` read at once: the edge settings come from the header.
    public init(
        replaying recording: PlaybackRecording, file: String, speed: Double, size: Size = Size(width: 80, height: 24),
        utcOffsetSeconds: Int = 0, logSize: Int = 10_000
    ) {
        self.init(
            playback: PlaybackState(file: file, recording: recording, speed: speed), header: recording.header,
            size: size, utcOffsetSeconds: utcOffsetSeconds, logSize: logSize)
    }

    /// A model replaying a streamed recording (`--replay FILE`); the driver supplies the entries.
    public init(
        replaying index: PlaybackIndex, file: String, speed: Double, size: Size = Size(width: 80, height: 24),
        utcOffsetSeconds: Int = 0, logSize: Int = 10_000
    ) {
        self.init(
            playback: PlaybackState(file: file, index: index, speed: speed), header: index.header,
            size: size, utcOffsetSeconds: utcOffsetSeconds, logSize: logSize)
    }

    private init(playback: PlaybackState, header h: RecordingHeader, size: Size, utcOffsetSeconds: Int, logSize: Int) {
        let config = InspectorConfig(
            host: h.host ?? "unknown", port: h.port ?? 0, tls: h.tls ?? false,
            dialect: h.dialect ?? "bird", logSize: logSize, utcOffsetSeconds: utcOffsetSeconds,
            edgeNote: "recorded by \(h.tool ?? "unknown")")
        self.init(config: config, now: playback.startedAt, size: size)
        self.playback = playback
        if let first = playback.problems.first {
            let more = playback.problemCount > 1 ? " (and \(playback.problemCount - 1) more)" : ""
            flash = Flash(text: "skipped \(first)\(more)", isError: true, until: .distantFuture)
        }
    }
}

extension Inspector {
    /// A tick while replaying: plays the entries that are due at the speed in force (and any a
    /// `.` or `>` asked for that were not loaded yet).
    static func playbackTick(_ now: Date, _ model: inout Model) {
        guard var r = model.playback else { return }
        if let last = r.lastTick, !r.paused, !r.finished, r.speed > 0 {
            let elapsed = now.timeIntervalSince(last)
            if elapsed.isFinite, elapsed > 0 { r.clockMs = min(r.clockMs + elapsed * 1000 * r.speed, 1e15) }
        }
        r.lastTick = now
        model.playback = r
        playTarget(&model)
        if !r.paused {
            play(&model) { entry, _ in r.speed == 0 || entry.monoMs <= r.clockMs }
        }
        syncPlaybackClock(&model)
        if model.flash?.until == .distantFuture { model.flash?.until = now.addingTimeInterval(flashSeconds * 2) }
    }

    /// Plays loaded entries from the current position while `due` (given the entry and its
    /// index) says so.
    static func play(_ model: inout Model, while due: (PlaybackEntry, Int) -> Bool) {
        while let r = model.playback, !r.finished, let entry = r.entry(at: r.position) {
            guard due(entry, r.position) else { return }
            model.playback?.advance(past: entry)
            if let event = entry.event { apply(event, at: entry.time, to: &model) }
            if let target = model.playback?.target, target < r.position + 1 {
                model.playback?.target = nil
                if model.playback?.finished != true, let total = model.playback?.total {
                    say("entry \(r.position + 1)/\(total): \(entry.summary)", &model)
                }
            }
            if model.playback?.finished == true { say("replay finished · q quits", &model) }
        }
    }

    /// Plays up to the entry `.` or `>` asked for, as far as it is loaded.
    static func playTarget(_ model: inout Model) {
        guard let target = model.playback?.target else { return }
        play(&model) { _, index in index <= target }
    }

    /// `model.now` follows playback time, so "since", countdowns and progress bars run at the
    /// replay's speed.
    static func syncPlaybackClock(_ model: inout Model) {
        guard let r = model.playback else { return }
        model.now = r.virtualNow
    }

    /// The keys of the Replay scope.
    static func playbackKey(_ binding: KeyBinding, _ model: inout Model) -> [Command] {
        if let why = binding.unavailable(model) {
            refuse("\(binding.label): \(why)", &model)
            return []
        }
        guard let r = model.playback else { return [] }
        model.flash = nil
        switch binding.action {
        case .playPause:
            model.playback?.paused.toggle()
            say(r.paused ? "playing · \(r.speedText)" : "paused · . steps one entry", &model)
        case .step:
            model.playback?.target = r.position
            playTarget(&model)
        case .nextState:
            guard let target = r.nextStateEntry(from: r.position) else { return [] }
            model.playback?.target = target
            playTarget(&model)
        case .faster, .slower:
            let speed = nextSpeed(r.speed, faster: binding.action == .faster)
            model.playback?.speed = speed
            say("speed \(model.playback?.speedText ?? "")", &model)
        default:
            break
        }
        syncPlaybackClock(&model)
        return []
    }

    /// The next speed up or down the ladder from `speed`.
    static func nextSpeed(_ speed: Double, faster: Bool) -> Double {
        let ladder = PlaybackState.speeds
        let fastest = ladder[ladder.count - 1], slowest = ladder[0]
        if speed == 0 { return faster ? 0 : fastest }
        if faster { return ladder.first { $0 > speed } ?? fastest }
        return ladder.last { $0 < speed } ?? slowest
    }

    /// Why a replay key cannot be used now, or nil.
    static func playbackProblem(_ model: Model, _ action: Action) -> String? {
        guard let r = model.playback else { return "only while replaying a recording (--replay FILE)" }
        let ladder = PlaybackState.speeds
        switch action {
        case .playPause: return r.finished ? "replay finished" : nil
        case .step:
            if r.finished { return "replay finished" }
            return r.paused ? nil : "only while paused (Space pauses)"
        case .nextState:
            if r.finished { return "replay finished" }
            return r.nextStateEntry(from: r.position) != nil ? nil : "no state change left in the recording"
        case .faster:
            return r.speed == 0 || r.speed >= ladder[ladder.count - 1] ? "already at the fastest speed" : nil
        case .slower:
            return r.speed != 0 && r.speed <= ladder[0] ? "already at the slowest speed" : nil
        default: return nil
        }
    }
}

/// Pacing of `--jsonl --replay`: when each line is due.
public enum PlaybackPacing {
    /// How long after playback began the entry recorded at `monoMs` is due at `speed`; nil at
    /// speed 0 (no waits). Clamped to 0…10¹³ s, so no input can make it trap.
    public static func due(monoMs: Double, speed: Double) -> Duration? {
        guard speed > 0 else { return nil }
        return Checked.duration(seconds: max(0, monoMs) / 1000 / speed, maxSeconds: 1e13)
    }
}
