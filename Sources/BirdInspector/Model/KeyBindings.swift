// The one key-binding table: it drives dispatch, the footer, the `?` overlay and docs/INSPECTOR.md.

import Foundation

/// Everything a key can do.
public enum Action: String, Sendable, CaseIterable {
    // Main screen.
    case subscribe, unsubscribe, trigger, signin, signout, disconnect, connect, drop, closeMenu, ping
    case filter, pause, follow, detail, nextPane, previousPane, commandLine, help, quit
    case up, down, pageUp, pageDown, top
    // Overlays and prompts.
    case close, bottom, choose, submit, cancel, erase, clear, toggleRaw, toggleCiphertext, complete
    // Replay (`--replay FILE`).
    case playPause, step, nextState, faster, slower
    // Timeline view.
    case timeline, left, right, zoomIn, zoomOut, previousMark, nextMark
    // Find, keep and share (the event log; `previousMark` / `nextMark` too).
    case search, nextMatch, previousMatch, toggleMark, export, copy
}

/// Where a binding applies.
public enum KeyScope: String, Sendable, CaseIterable {
    case main = "Main screen"
    case replay = "Replay (--replay FILE, on the main screen)"
    case detail = "Detail view"
    case help = "Help overlay"
    case closeMenu = "Close-code menu"
    case timeline = "Timeline view (T)"
    case prompt = "Prompts (s, t, i, /, f, w, :)"
}

/// One row of the key table.
public struct KeyBinding: Sendable {
    /// Where it applies.
    public let scope: KeyScope
    /// The keys (first is the one shown).
    public let keys: [Key]
    /// What it does.
    public let action: Action
    /// Label for the footer.
    public let label: String
    /// The label abbreviated, for a footer that cannot hold every full label ("disc").
    public let short: String
    /// One-line help for `?` and the docs.
    public let help: String
    /// Whether the footer lists it.
    public let inFooter: Bool
    /// Whether it talks to the client or an edge (so it is unavailable while replaying).
    public let liveOnly: Bool
    /// Why the binding cannot be used right now, or nil when it can.
    public let unavailable: @Sendable (Model) -> String?

    init(
        _ scope: KeyScope, _ keys: [Key], _ action: Action, _ label: String, _ help: String, short: String? = nil,
        footer: Bool = false, live: Bool = false, unavailable: @escaping @Sendable (Model) -> String? = { _ in nil }
    ) {
        self.scope = scope
        self.keys = keys
        self.action = action
        self.label = label
        self.short = short ?? label
        self.help = help
        self.inFooter = footer
        self.liveOnly = live
        if live {
            self.unavailable = { (m: Model) -> String? in m.playback != nil ? "replaying a recording" : unavailable(m) }
        } else {
            self.unavailable = unavailable
        }
    }

    /// Key names joined for display ("G / End").
    public var keyNames: String { keys.map(\.name).joined(separator: " / ") }
}

/// The key table and lookups.
public enum KeyBindings {
    /// Every binding, grouped by scope in display order.
    public static let all: [KeyBinding] = [
        // Main screen.
        .init(
            .main, [.char("s")], .subscribe, "subscribe", "Subscribe to a channel (prompts for its name)", short: "sub",
            footer: true, live: true),
        .init(
            .main, [.char("u")], .unsubscribe, "unsubscribe", "Unsubscribe the selected channel", short: "unsub",
            footer: true, live: true,
            unavailable: { m in
                guard let ch = m.currentChannel else { return "no channel selected" }
                return ch.kind == .member ? "the member channel follows sign-in (o signs out)" : nil
            }),
        .init(
            .main, [.char("t")], .trigger, "trigger",
            "Trigger a client event on the selected channel (prompts for name and JSON)", short: "trig", footer: true,
            live: true,
            unavailable: { m in Inspector.triggerProblem(m, channel: m.currentChannel?.name) }),
        .init(
            .main, [.char("i")], .signin, "sign in",
            "Sign in as a member (member auth endpoint; with --sandbox it asks which id, the default pre-filled)",
            short: "in",
            footer: true, live: true,
            unavailable: { m in
                if let id = m.connection.memberId { return "already signed in as \(id)" }
                return m.config.canSignIn ? nil : "no member auth endpoint (--member-auth-endpoint)"
            }),
        .init(
            .main, [.char("o")], .signout, "sign out", "Sign out (reconnects without the identity)", short: "out",
            footer: true, live: true,
            unavailable: { m in m.connection.memberId == nil ? "not signed in" : nil }),
        .init(
            .main, [.char("d")], .disconnect, "disconnect", "Disconnect (nothing is scheduled)", short: "disc",
            footer: true, live: true,
            unavailable: { m in m.connection.state == .disconnected ? "already disconnected" : nil }),
        .init(
            .main, [.char("c")], .connect, "connect", "Connect (from disconnected or failed)", short: "conn",
            footer: true, live: true,
            unavailable: { m in
                let s = m.connection.state
                return s == .disconnected || s == .failed || s == .initialized
                    ? nil : "already \(s.rawValue) (connect works from disconnected or failed)"
            }),
        .init(
            .main, [.char("x")], .drop, "drop", "Drop the socket as if the network died (the backoff path)",
            footer: true, live: true,
            unavailable: { m in
                let s = m.connection.state
                return s == .connected || s == .connecting ? nil : "no open socket (\(s.rawValue))"
            }),
        .init(
            .main, [.char("k")], .closeMenu, "close code",
            "Ask the sandbox to close this connection with a code (menu shows each band's behaviour)", short: "close",
            footer: true, live: true,
            unavailable: { m in
                if !m.config.sandboxAttached { return "not attached to a sandbox (--sandbox or --sandbox-control URL)" }
                return m.connection.state == .connected && m.connection.connectionId != nil ? nil : "not connected"
            }),
        .init(
            .main, [.char("r")], .ping, "ping",
            "Ping the edge now: the round-trip time goes to the log and the Connection pane's rtt line", short: "rtt",
            footer: true, live: true,
            unavailable: { m in m.connection.state == .connected ? nil : "not connected" }),
        .init(
            .main, [.char("/")], .filter, "filter",
            "Filter the event log: words AND-ed — text, \"a phrase\", /regex/, ch:GLOB, ev:GLOB, dir:in|out, "
                + "kind:state|event|error|wire, !term negates (Esc reverts)",
            short: "filt", footer: true),
        .init(
            .main, [.char("f")], .search, "search",
            "Search the event log (same query as /): matches are flagged ▸ in the gutter, nothing is hidden",
            short: "srch"),
        .init(
            .main, [.char("n")], .nextMatch, "next match", "Select the next search match (wraps round)",
            unavailable: { m in m.find.search == nil ? "no search (f sets one)" : nil }),
        .init(
            .main, [.char("N")], .previousMatch, "prev match", "Select the previous search match (wraps round)",
            unavailable: { m in m.find.search == nil ? "no search (f sets one)" : nil }),
        .init(
            .main, [.char("m")], .toggleMark, "mark",
            "Mark the selected entry ● (again: unmark); marks stay through filter changes",
            unavailable: { m in Inspector.selectedEntry(m) == nil ? "no entry selected" : nil }),
        .init(
            .main, [.char("]")], .nextMark, "next mark", "Select the next marked entry (wraps round)",
            unavailable: { m in m.find.marks.isEmpty ? "no marks (m marks the selected entry)" : nil }),
        .init(
            .main, [.char("[")], .previousMark, "prev mark", "Select the previous marked entry (wraps round)",
            unavailable: { m in m.find.marks.isEmpty ? "no marks (m marks the selected entry)" : nil }),
        .init(
            .main, [.char("w")], .export, "write",
            "Write the filtered event log to a file as JSON lines, like --jsonl (prompts for the path)",
            unavailable: { m in m.log.count == 0 ? "the log is empty" : nil }),
        .init(
            .main, [.char("y")], .copy, "copy",
            "Copy the selected entry's JSON line to the clipboard (OSC 52; up to 100 KB)",
            unavailable: { m in Inspector.selectedEntry(m) == nil ? "no entry selected" : nil }),
        .init(.main, [.char("p")], .pause, "pause", "Pause the event log / follow it again", footer: true),
        .init(
            .main, [.char("G"), .end], .follow, "follow", "Go live: follow the newest events",
            unavailable: { m in !m.paused && m.selectedSeq == nil ? "already following" : nil }),
        .init(
            .main, [.enter], .detail, "detail", "Open the selected log entry: its data pretty-printed (r: raw)",
            short: "open", footer: true,
            unavailable: { m in
                Inspector.selectedEntry(m) == nil
                    ? (m.filter.isEmpty ? "the log is empty" : "no entry matches the filter") : nil
            }),
        .init(
            .main, [.char("T")], .timeline, "timeline",
            "Timeline of the connection's life: state spans, closes, retries, network, sign-ins (Enter moves the log there)",
            short: "time", footer: true),
        .init(.main, [.tab], .nextPane, "pane", "Focus the next pane", footer: true),
        .init(.main, [.backTab], .previousPane, "prev pane", "Focus the previous pane"),
        .init(.main, [.up], .up, "up", "Move up in the focused pane (in Events this pauses)"),
        .init(.main, [.down], .down, "down", "Move down in the focused pane"),
        .init(.main, [.pageUp], .pageUp, "page up", "Page up in the focused pane"),
        .init(.main, [.pageDown], .pageDown, "page down", "Page down in the focused pane"),
        .init(.main, [.home], .top, "top", "Go to the first row of the focused pane"),
        .init(
            .main, [.char(":")], .commandLine, "command", "Command line: " + CommandText.usage, short: "cmd",
            footer: true),
        .init(.main, [.char("?")], .help, "help", "Show all keys and why any is unavailable", footer: true),
        .init(.main, [.char("q")], .quit, "quit", "Quit and restore the terminal", footer: true),

        // Replay: on the main screen while `--replay FILE` plays (none of these keys is a main key).
        .init(
            .replay, [.char(" ")], .playPause, "pause replay", "Pause / resume playback", short: "play", footer: true,
            unavailable: { m in Inspector.playbackProblem(m, .playPause) }),
        .init(
            .replay, [.char(".")], .step, "step", "Play the next entry (while paused)", footer: true,
            unavailable: { m in Inspector.playbackProblem(m, .step) }),
        .init(
            .replay, [.char(">")], .nextState, "next state", "Play up to and including the next state change",
            short: "state", footer: true,
            unavailable: { m in Inspector.playbackProblem(m, .nextState) }),
        .init(
            .replay, [.char("+"), .char("=")], .faster, "faster", "Play faster (×0.25 … ×64)", short: "fast",
            footer: true,
            unavailable: { m in Inspector.playbackProblem(m, .faster) }),
        .init(
            .replay, [.char("-")], .slower, "slower", "Play slower", short: "slow", footer: true,
            unavailable: { m in Inspector.playbackProblem(m, .slower) }),

        // Detail view.
        .init(.detail, [.escape, .enter, .char("q")], .close, "close", "Close the detail view", footer: true),
        .init(.detail, [.up], .up, "up", "Scroll up", footer: true),
        .init(.detail, [.down], .down, "down", "Scroll down", footer: true),
        .init(.detail, [.pageUp], .pageUp, "page up", "Page up"),
        .init(.detail, [.pageDown], .pageDown, "page down", "Page down"),
        .init(.detail, [.home], .top, "top", "Go to the top"),
        .init(.detail, [.end], .bottom, "bottom", "Go to the bottom"),
        .init(
            .detail, [.char("r")], .toggleRaw, "raw / pretty",
            "Show the data exactly as received (raw text) / pretty-printed again", footer: true),
        .init(
            .detail, [.char("c")], .toggleCiphertext, "ciphertext",
            "Encrypted channels: show the data as it travelled (the ciphertext envelope) / decrypted again",
            footer: true,
            unavailable: { m in Inspector.ciphertextProblem(m) }),
        .init(.detail, [.char("y")], .copy, "copy", "Copy the entry's JSON line to the clipboard (OSC 52)"),
        .init(.detail, [.char("?")], .help, "help", "Show all keys; closing the help comes back here", footer: true),

        // Help overlay.
        .init(.help, [.escape, .char("?"), .char("q")], .close, "close", "Close the help", footer: true),
        .init(.help, [.up], .up, "up", "Scroll up", footer: true),
        .init(.help, [.down], .down, "down", "Scroll down", footer: true),
        .init(.help, [.pageUp], .pageUp, "page up", "Page up"),
        .init(.help, [.pageDown], .pageDown, "page down", "Page down"),

        // Close-code menu.
        .init(.closeMenu, [.up], .up, "up", "Previous code", footer: true),
        .init(.closeMenu, [.down], .down, "down", "Next code", footer: true),
        .init(
            .closeMenu, [.enter], .choose, "close with code", "Ask the sandbox to close with the chosen code",
            footer: true),
        .init(
            .closeMenu, [.escape, .char("q")], .cancel, "cancel", "Close the menu without doing anything", footer: true),
        .init(.closeMenu, [.char("?")], .help, "help", "Show all keys; closing the help comes back here", footer: true),

        // Timeline view.
        .init(.timeline, [.left], .left, "earlier", "Move the cursor one column earlier", footer: true),
        .init(
            .timeline, [.right], .right, "later", "Move the cursor one column later (past now it follows now)",
            footer: true),
        .init(.timeline, [.pageUp], .pageUp, "page earlier", "Move the cursor one screen earlier"),
        .init(.timeline, [.pageDown], .pageDown, "page later", "Move the cursor one screen later"),
        .init(
            .timeline, [.char("+"), .char("=")], .zoomIn, "zoom in",
            "Zoom in (fewer seconds per column, down to 0.1 s)", short: "in",
            footer: true),
        .init(
            .timeline, [.char("-")], .zoomOut, "zoom out", "Zoom out (more seconds per column, up to 1 h)",
            short: "out", footer: true),
        .init(
            .timeline, [.char("[")], .previousMark, "prev mark",
            "Move the cursor to the previous mark (close, retry, network, sign-in)",
            short: "prev", footer: true),
        .init(
            .timeline, [.char("]")], .nextMark, "next mark", "Move the cursor to the next mark", short: "next",
            footer: true),
        .init(.timeline, [.home], .top, "start", "Move the cursor to the start of the history"),
        .init(.timeline, [.end], .bottom, "now", "Follow now again"),
        .init(
            .timeline, [.enter], .choose, "show in log",
            "Close the timeline and select the event log entry nearest the cursor's time (the log pauses there)",
            short: "log",
            footer: true),
        .init(.timeline, [.escape, .char("T"), .char("q")], .close, "close", "Close the timeline", footer: true),
        .init(.timeline, [.char("?")], .help, "help", "Show all keys; closing the help comes back here", footer: true),

        // Prompts (printable characters are typed into the prompt).
        .init(.prompt, [.enter], .submit, "submit", "Submit (input is validated; a refusal says why)", footer: true),
        .init(
            .prompt, [.escape], .cancel, "cancel", "Cancel (a filter or a search reverts to what it was)", footer: true),
        .init(.prompt, [.backspace], .erase, "erase", "Delete the last character"),
        .init(.prompt, [.ctrl("u")], .clear, "clear", "Clear the input"),
        .init(.prompt, [.up], .up, "history", "On the : line: the previous command entered (history)"),
        .init(.prompt, [.down], .down, "history", "On the : line: the next command entered (history)"),
        .init(
            .prompt, [.tab], .complete, "complete",
            "On the : line: complete the command name (any unique prefix works too) or the channel name"),
    ]

    /// The bindings of one scope.
    public static func scope(_ scope: KeyScope) -> [KeyBinding] { all.filter { $0.scope == scope } }

    /// The binding for a key in a scope.
    public static func binding(for key: Key, in scope: KeyScope) -> KeyBinding? {
        all.first { $0.scope == scope && $0.keys.contains(key) }
    }

    /// The key reference as Markdown tables (docs/INSPECTOR.md embeds this text).
    public static var markdown: String {
        var out = ""
        for scope in KeyScope.allCases {
            out += "### \(scope.rawValue)\n\n| key | does |\n| --- | --- |\n"
            for b in self.scope(scope) {
                out += "| `\(b.keyNames)` | \(b.help.replacingOccurrences(of: "|", with: "\\|")) |\n"
            }
            out += "\n"
        }
        return out
    }
}
