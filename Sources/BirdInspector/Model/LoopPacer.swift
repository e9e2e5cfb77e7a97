// When the TUI's main loop reads the terminal, drains the client's messages, ticks and draws:
// input is handled and drawn at once, before any client message still waiting; the messages come
// in bounded batches with a look for input between them (so a key waits behind one batch at most,
// never behind a whole inbox); ticks come 10 times a second and redraws for client messages at
// most 30 times a second. A value with the time given, so the schedule is tested without a clock.

import Foundation

/// The main loop's schedule (bird-inspect's `TerminalApp` performs it).
public struct LoopPacer: Sendable {
    /// What the loop does after a batch of client messages.
    public enum AfterBatch: Sendable, Equatable {
        /// Look for input without waiting (handle and draw it if there is some), then drain again.
        case pollThenDrain
        /// The turn's draining is done (the inbox is empty or the turn's batches are used up).
        case done
    }

    /// What the end of a turn asks for.
    public struct TurnEnd: Sendable, Equatable {
        /// Send a `.tick`.
        public var tick: Bool
        /// Draw a frame (look for input first: a key that came during the drain goes into it).
        public var draw: Bool
    }

    /// Client messages taken from the inbox at once.
    public let batch: Int
    /// Batches per turn, so a turn (and a key waiting for the next read) stays short.
    public let batchesPerTurn: Int
    /// Least time between frames drawn for client messages (input is drawn at once).
    public let frameInterval: TimeInterval
    /// Time between ticks.
    public let tickInterval: TimeInterval
    /// Whether something changed since the last frame.
    public private(set) var dirty = true
    private var lastDraw: Date?
    private var lastTick: Date
    private var batchesThisTurn = 0

    /// The schedule of a loop started at `start` (the first tick comes `tickInterval` later).
    public init(
        start: Date, batch: Int = 500, batchesPerTurn: Int = 10, frameInterval: TimeInterval = 1.0 / 30,
        tickInterval: TimeInterval = 0.1
    ) {
        self.batch = max(1, batch)
        self.batchesPerTurn = max(1, batchesPerTurn)
        self.frameInterval = frameInterval
        self.tickInterval = tickInterval
        lastTick = start
    }

    /// How long the turn's read may wait for input: short while a frame is owed, else one frame.
    public var readTimeoutMilliseconds: Int32 { dirty ? 10 : 33 }

    /// Input was handled and drawn at `now` (always at once: it never waits for a frame).
    public mutating func inputDrawn(at now: Date) {
        lastDraw = now
        dirty = false
    }

    /// A new turn begins (its batches are counted from here).
    public mutating func turnBegins() {
        batchesThisTurn = 0
    }

    /// A batch gave `taken` items (of at most `batch`), `changed` when any went to `update`.
    public mutating func drained(_ taken: Int, changed: Bool) -> AfterBatch {
        if changed { dirty = true }
        batchesThisTurn += 1
        return taken >= batch && batchesThisTurn < batchesPerTurn ? .pollThenDrain : .done
    }

    /// The turn's draining is over at `now`: whether to tick and whether to draw. A tick makes
    /// the screen owe a frame (the countdown moves).
    public mutating func turnEnds(at now: Date) -> TurnEnd {
        var tick = false
        if now.timeIntervalSince(lastTick) >= tickInterval {
            tick = true
            lastTick = now
            dirty = true
        }
        let due = lastDraw.map { now.timeIntervalSince($0) >= frameInterval } ?? true
        return TurnEnd(tick: tick, draw: dirty && due)
    }

    /// A frame for client messages was drawn at `now`.
    public mutating func frameDrawn(at now: Date) {
        lastDraw = now
        dirty = false
    }
}
