// Everything that can happen to the inspector: keys, time, size, and client events.

import Foundation

/// A key press, decoded by the backend.
public enum Key: Hashable, Sendable {
    /// A printable character.
    case char(Character)
    /// Control + a letter (lowercase), e.g. `.ctrl("u")`.
    case ctrl(Character)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, pageUp, pageDown, home, end

    /// The key's name as shown in the footer, the help overlay and the docs.
    public var name: String {
        switch self {
        case .char(" "): return "Space"
        case .char(let c): return String(c)
        case .ctrl(let c): return "Ctrl-\(c.uppercased())"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        }
    }
}

/// An input to `update`.
public enum Message: Sendable, Equatable {
    /// Something the client reported, with the time it happened.
    case client(ClientEvent, at: Date)
    /// A key press.
    case key(Key)
    /// Time passed (the driver sends at least 10 per second so countdowns tick).
    case tick(now: Date)
    /// The terminal has a new size.
    case resize(Size)
    /// The recording (`--record FILE`) now holds this many lines.
    case recorded(lines: Int)
    /// The driver wrote an export (`Command.export`) to `path` (made absolute), or could not:
    /// `error` says why.
    case exported(path: String, entries: Int, error: String?)
    /// A mouse click or wheel turn at cell (`x`, `y`) of the terminal (0-based).
    case mouse(x: Int, y: Int, kind: MouseKind)
}

/// What the mouse did (the driver reports only these; `--no-mouse` turns reporting off).
public enum MouseKind: Sendable, Equatable {
    /// The first button went down: focus the pane, select the entry under it.
    case click
    /// The wheel turned away from the user: scroll up (earlier entries).
    case wheelUp
    /// The wheel turned towards the user: scroll down.
    case wheelDown
}
