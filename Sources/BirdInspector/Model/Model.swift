// The inspector's whole state: a plain value, changed only by `update`.

import BirdRealtime
import BirdWire
import Foundation

/// Settings fixed at start (from the command line).
public struct InspectorConfig: Sendable, Equatable {
    /// Edge host shown in the Connection pane.
    public var host: String
    /// Edge port.
    public var port: Int
    /// Whether the socket uses TLS.
    public var tls: Bool
    /// `bird` or `pusher`.
    public var dialect: String
    /// Activity timeout option (the handshake may lower it).
    public var activityTimeout: Duration
    /// Pong timeout.
    public var pongTimeout: Duration
    /// Whether `k` can ask a sandbox to close the connection (`--sandbox`, `--sandbox-control`).
    public var sandboxAttached: Bool
    /// Whether sign-in is configured (member auth endpoint or the sandbox's demo endpoint).
    public var canSignIn: Bool
    /// The member id `i` offers to sign in as, when the member auth endpoint signs a chosen id
    /// (the embedded sandbox's demo endpoint); nil: the endpoint decides, `i` signs in at once.
    public var signinId: String? = nil
    /// Event log bound in entries.
    public var logSize: Int
    /// Event log bound in bytes.
    public var logBytes: Int
    /// Offset of local time from UTC, for timestamps on screen.
    public var utcOffsetSeconds: Int
    /// A note shown in the Connection pane's edge line (e.g. "embedded bird-sandbox").
    public var edgeNote: String?
    /// What the Connection pane's network line says until the client reports a path (e.g. "not
    /// monitored (loopback edge)").
    public var networkNote: String
    /// Whether the terminal takes Unicode (a UTF-8 locale): the timeline and sparklines draw with
    /// block characters, else with an ASCII fallback.
    public var unicode = true

    /// Settings with defaults.
    public init(
        host: String = "localhost", port: Int = 443, tls: Bool = true, dialect: String = "bird",
        activityTimeout: Duration = .seconds(120), pongTimeout: Duration = .seconds(30),
        sandboxAttached: Bool = false, canSignIn: Bool = false, logSize: Int = 10_000,
        logBytes: Int = 32 << 20, utcOffsetSeconds: Int = 0, edgeNote: String? = nil,
        networkNote: String = "not monitored"
    ) {
        self.host = host
        self.port = port
        self.tls = tls
        self.dialect = dialect
        self.activityTimeout = activityTimeout
        self.pongTimeout = pongTimeout
        self.sandboxAttached = sandboxAttached
        self.canSignIn = canSignIn
        self.logSize = logSize
        self.logBytes = logBytes
        self.utcOffsetSeconds = utcOffsetSeconds
        self.edgeNote = edgeNote
        self.networkNote = networkNote
    }
}

/// What the Connection pane shows.
public struct ConnectionInfo: Sendable, Equatable {
    /// Current state.
    public var state: ConnectionState = .initialized
    /// When the current state began.
    public var since: Date?
    /// Connection id while connected (kept, dimmed, after).
    public var connectionId: String?
    /// Activity timeout in force after the last handshake.
    public var activityTimeout: Duration?
    /// Cause of the last transition.
    public var lastCause: TransitionCause?
    /// Last close code and reason seen.
    public var lastClose: (code: Int, reason: String)?
    /// Next attempt time during backoff.
    public var nextAttemptAt: Date?
    /// Delay of the scheduled retry (for the progress bar).
    public var retryDelay: Duration?
    /// Attempt number of the scheduled retry.
    public var attempt: Int?
    /// Signed-in member id.
    public var memberId: String?
    /// Number of transitions seen.
    public var transitions = 0
    /// The network path the client's monitor last reported (nil: none reported).
    public var networkPath: NetworkPathRecord?
    /// What the client last did about the endpoint (nil: no endpoint provider reported).
    public var endpoint: EndpointRecord?
    /// The latest round-trip times, oldest first (at most ``roundTripHistory``).
    public var roundTrips: [Duration] = []
    /// When the `--scenario`'s latest edge restart ends its down time (nil: none seen).
    public var edgeBackAt: Date?

    /// How many round-trip times the Connection pane summarises.
    public static let roundTripHistory = 20

    /// Whether the client is waiting for the network: `unavailable` because there is none, with
    /// nothing scheduled (the Connection pane shows "waiting for network" instead of a countdown).
    public var waitingForNetwork: Bool {
        guard state == .unavailable, case .networkUnavailable? = lastCause else { return false }
        return true
    }

    public static func == (a: ConnectionInfo, b: ConnectionInfo) -> Bool {
        a.state == b.state && a.since == b.since && a.connectionId == b.connectionId && a.lastCause == b.lastCause
            && a.lastClose?.code == b.lastClose?.code && a.lastClose?.reason == b.lastClose?.reason
            && a.nextAttemptAt == b.nextAttemptAt && a.attempt == b.attempt && a.memberId == b.memberId
            && a.networkPath == b.networkPath && a.endpoint == b.endpoint && a.roundTrips == b.roundTrips
            && a.edgeBackAt == b.edgeBackAt
    }
}

/// Subscription status of a channel.
public enum ChannelStatus: Sendable, Equatable {
    case subscribing
    case subscribed
    case failed(SubscriptionFailure)
    case waitingForReconnect
}

/// One row of the Channels pane.
public struct ChannelInfo: Sendable, Equatable {
    /// Name.
    public var name: String
    /// Kind by prefix.
    public var kind: ChannelRules.Kind { ChannelRules.kind(of: name) }
    /// Status.
    public var status: ChannelStatus
    /// Events received, and client events sent on it (counted here too).
    public var events = 0
    /// Client events sent on it.
    public var sent = 0
    /// Presence roster (ordered by id), for presence channels.
    public var members: [PresenceMember] = []
    /// Own member id on a presence channel.
    public var myId: String?
    /// Connection count (when the app enables counting).
    public var connectionCount: Int?
    /// Events on this (encrypted) channel that did not decrypt and were not delivered.
    public var decryptionFailures = 0
    /// Why the last of them did not decrypt (the library's words; never a key).
    public var lastDecryptionProblem: String?
    /// The offset of the last event received with one (Bird dialect).
    public var lastOffset: Int?
    /// What the latest subscription said about continuity (nil: nothing said yet).
    public var continuity: ContinuityRecord?
    /// Events (received and sent) per second over the last half minute, for the sparkline.
    public var rate = EventRate()

    /// Whether the channel is end-to-end encrypted (`private-encrypted-…`).
    public var isEncrypted: Bool { ChannelKind.isEncrypted(channelName: name) }

    /// A channel.
    public init(name: String, status: ChannelStatus) {
        self.name = name
        self.status = status
    }
}

/// The four panes, in Tab order.
public enum Pane: String, Sendable, CaseIterable {
    case connection = "Connection", channels = "Channels", events = "Events", members = "Members"
}

/// A text prompt in the footer.
public struct Prompt: Sendable, Equatable {
    /// What the prompt is for.
    public enum Purpose: Sendable, Equatable {
        case subscribe
        case triggerEvent(channel: String)
        case triggerData(channel: String, event: String)
        case filter(previous: String)
        case command
        /// `f`: a search query (reverts to `previous` on Esc).
        case search(previous: String)
        /// `w`: the file the filtered log is written to.
        case export
        /// The member id to sign in as (`i`), pre-filled with the default.
        case signin
    }
    /// Purpose.
    public var purpose: Purpose
    /// Text typed so far.
    public var text: String
    /// On the `:` line, the history entry shown (↑/↓), nil while typing a new one.
    public var historyIndex: Int? = nil

    /// The label before the input.
    public var label: String {
        switch purpose {
        case .subscribe: return "subscribe to channel: "
        case .triggerEvent(let ch): return "trigger on \(ch) — event name: "
        case .triggerData(_, let ev): return "\(ev) — JSON data (empty for none): "
        case .filter: return "/"
        case .command: return ":"
        case .search: return "search: "
        case .export: return "write the filtered log (JSONL) to: "
        case .signin: return "sign in as member id [info JSON]: "
        }
    }
}

/// What is in front: the panes, a prompt, or an overlay.
public enum Mode: Sendable, Equatable {
    case normal
    case prompt(Prompt)
    case help(scroll: Int)
    /// The detail view of log entry `seq`; `raw` shows the data exactly as received.
    case detail(seq: Int, scroll: Int, raw: Bool)
    case closeMenu(selected: Int)
    /// The timeline of the connection's life (`T`), with its zoom, scroll and cursor.
    case timeline(TimelineWindow)
}

/// A transient status line in the footer.
public struct Flash: Sendable, Equatable {
    /// The text.
    public var text: String
    /// True for refusals and errors.
    public var isError: Bool
    /// When it disappears.
    public var until: Date
    /// Whether the full text is also in the event log (a cut footer says so).
    public var logged = false
}

/// A recording being written (`--record FILE`), as the screen shows it: `● REC path (N)`.
public struct RecordingStatus: Sendable, Equatable {
    /// The file, as given on the command line.
    public var path: String
    /// Lines written to it so far (the header included).
    public var lines: Int

    /// A recording of `lines` lines at `path`.
    public init(path: String, lines: Int = 0) {
        self.path = path
        self.lines = lines
    }
}

/// The inspector state.
public struct Model: Sendable {
    /// Start settings.
    public var config: InspectorConfig
    /// Current time (from ticks and client events).
    public var now: Date
    /// Terminal size.
    public var size: Size
    /// Connection pane state.
    public var connection = ConnectionInfo()
    /// Channels in subscription order.
    public var channels: [ChannelInfo] = []
    /// Index of the selected channel.
    public var selectedChannel = 0
    /// The event log.
    public var log: EventLog
    /// Whether the log is paused (frozen at `pausedAtSeq`).
    public var paused = false
    /// Newest sequence number visible while paused.
    public var pausedAtSeq = 0
    /// Entries that arrived while paused.
    public var missedWhilePaused = 0
    /// Selected log entry (nil: the newest, following).
    public var selectedSeq: Int?
    /// The log filter's text (`/`, docs/INSPECTOR.md § Filter, search, marks): a `LogQuery`;
    /// text that is not a valid query is matched as plain text.
    public var filter: String {
        get { filterQuery.text }
        set { filterQuery = LogQuery.parseOrLiteral(newValue) }
    }
    /// The log filter, parsed.
    public var filterQuery = LogQuery()
    /// The search (`f`, `n`/`N`) and the marks (`m`, `[`/`]`).
    public var find = FindState()
    /// First row of the Members list.
    public var membersScroll = 0
    /// Focused pane.
    public var focus: Pane = .events
    /// Mode.
    public var mode: Mode = .normal
    /// The screen the help overlay was opened from (detail, close menu, timeline), which closing
    /// it returns to; nil for the main screen.
    public var helpReturn: Mode?
    /// Footer status message.
    public var flash: Flash?
    /// Whether the detail view shows a decrypted event's ciphertext as received (`c`) instead of
    /// its plaintext.
    public var detailCiphertext = false
    /// Set by `quit`.
    public var quitting = false
    /// Playback state with `--replay FILE` (nil in a live session).
    public var playback: PlaybackState?
    /// Channel events the inspector dropped because it fell behind (`dropped` lines), and when
    /// the last drop began.
    public var dropped = DroppedTally()
    /// Command lines entered on `:`, oldest first (at most 100; ↑/↓ recall them).
    public var commandHistory: [String] = []
    /// The recording being written with `--record FILE` (nil when not recording).
    public var recording: RecordingStatus?
    /// The connection's life: state spans and marks (the Timeline view, `T`).
    public var timeline = Timeline()

    /// A fresh model.
    public init(
        config: InspectorConfig = InspectorConfig(), now: Date = Date(timeIntervalSince1970: 0),
        size: Size = Size(width: 80, height: 24)
    ) {
        self.config = config
        self.now = now
        self.size = size
        log = EventLog(maxEntries: config.logSize, maxBytes: config.logBytes)
    }

    /// The selected channel, if any.
    public var currentChannel: ChannelInfo? {
        channels.indices.contains(selectedChannel) ? channels[selectedChannel] : nil
    }

    /// The wall clock footer messages expire by (in a replay `now` follows playback time).
    public var flashNow: Date { playback?.lastTick ?? now }

    /// Index of a channel by name.
    public func channelIndex(_ name: String) -> Int? { channels.firstIndex { $0.name == name } }
}

/// What the inspector dropped because it fell behind (the inbox was full).
public struct DroppedTally: Sendable, Equatable {
    /// Channel events dropped so far.
    public var events = 0
    /// Recording `wire` lines dropped so far.
    public var wire = 0
    /// When the last run of drops began.
    public var lastSince: Date?

    /// Nothing dropped.
    public init() {}
}
