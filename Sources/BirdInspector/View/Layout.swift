// Where the panes go for a terminal size.

/// Pane rectangles for a terminal size.
public struct Layout: Sendable, Equatable {
    /// Smallest usable terminal.
    public static let minimum = Size(width: 60, height: 16)

    /// Whether the terminal is too small for the panes.
    public let tooSmall: Bool
    /// Connection pane (top left).
    public let connection: Rect
    /// Channels pane (top right).
    public let channels: Rect
    /// Events pane (bottom left).
    public let events: Rect
    /// Members pane (bottom right).
    public let members: Rect
    /// The footer row.
    public let footer: Rect

    /// Columns the Connection pane keeps when the Channels pane asks for more.
    public static let connectionKeeps = 64

    /// The layout for `size`. `channelsWant` is the width the Channels pane needs to show every
    /// row whole; it gets it from the Connection pane beside it, which keeps at least
    /// ``connectionKeeps`` columns (the bottom row's split does not change). `connectionWant` is
    /// the height (borders included) the Connection pane's lines need: the top row grows from 10
    /// rows to it, up to half the screen.
    public init(size: Size, channelsWant: Int = 0, connectionWant: Int = 0) {
        let w = size.width, h = size.height
        tooSmall = w < Layout.minimum.width || h < Layout.minimum.height
        let right = min(56, max(26, w * 3 / 8))
        let left = w - right
        let topRight = min(max(right, channelsWant), max(right, w - Layout.connectionKeeps))
        let top = min(max(10, connectionWant), (h - 1) / 2)
        connection = Rect(x: 0, y: 0, width: w - topRight, height: top)
        channels = Rect(x: w - topRight, y: 0, width: topRight, height: top)
        events = Rect(x: 0, y: top, width: left, height: h - 1 - top)
        members = Rect(x: left, y: top, width: right, height: h - 1 - top)
        footer = Rect(x: 0, y: max(0, h - 1), width: w, height: 1)
    }

    /// The rectangle of a pane.
    public func rect(_ pane: Pane) -> Rect {
        switch pane {
        case .connection: return connection
        case .channels: return channels
        case .events: return events
        case .members: return members
        }
    }
}
