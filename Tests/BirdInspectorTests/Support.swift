// Helpers for the inspector's tests: scripted models and grid assertions.

import BirdRealtime
import Foundation
import Testing

@testable import BirdInspector

/// Feeds one library activity through `ClientFeed` and `update`, as LiveSession does.
func feed(
    _ h: inout Harness, _ activity: ClientActivity, at seconds: Double,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard case .client(let event)? = ClientFeed.item(activity, recording: false) else {
        Issue.record("\(activity) gave no client event", sourceLocation: sourceLocation)
        return
    }
    h.client(event, at: seconds)
}

/// The Connection pane's text, rows joined.
func connectionText(_ h: Harness) -> String {
    flowed(paneRows(h.render(), Inspector.layout(h.model, size: h.model.size).connection))
}

/// A fixed start time: 2023-11-14T22:13:20Z.
let t0 = Date(timeIntervalSince1970: 1_700_000_000)

/// The two sizes every screen is checked at.
let screenSizes = [Size(width: 80, height: 24), Size(width: 200, height: 50)]

/// A model being driven by messages, as the real driver would.
struct Harness {
    var model: Model
    var commands: [Command] = []

    init(size: Size = Size(width: 80, height: 24), sandbox: Bool = true, logSize: Int = 10_000) {
        let config = InspectorConfig(
            host: "127.0.0.1", port: 6001, tls: false, dialect: "bird",
            sandboxAttached: sandbox, canSignIn: true, logSize: logSize)
        model = Model(config: config, now: t0, size: size)
    }

    /// Sends a client event `seconds` after t0.
    mutating func client(_ event: ClientEvent, at seconds: Double) {
        commands += Inspector.update(&model, .client(event, at: t0.addingTimeInterval(seconds)))
    }

    /// Advances the clock to `seconds` after t0.
    mutating func tick(_ seconds: Double) {
        commands += Inspector.update(&model, .tick(now: t0.addingTimeInterval(seconds)))
    }

    /// Presses keys: characters are typed, "\n" is Enter, "\t" is Tab, "\u{1B}" is Esc.
    mutating func type(_ text: String) {
        for c in text {
            switch c {
            case "\n": press(.enter)
            case "\t": press(.tab)
            case "\u{1B}": press(.escape)
            default: press(.char(c))
            }
        }
    }

    mutating func press(_ key: Key) {
        commands += Inspector.update(&model, .key(key))
    }

    /// Renders at the model's size.
    func render() -> Grid { Inspector.view(model, size: model.size) }

    /// Connects and subscribes a public, a private and a presence channel.
    mutating func connectAndSubscribe() {
        client(.stateChanged(StateChangeRecord(previous: .initialized, current: .connecting, cause: .started)), at: 0)
        client(
            .stateChanged(
                StateChangeRecord(
                    previous: .connecting, current: .connected, cause: .handshake,
                    connectionId: "123.456", activityTimeout: .seconds(60))), at: 0.25)
        for ch in ["chat", "private-orders", "presence-room"] {
            type(":subscribe \(ch)\n")
            client(.subscribed(channel: ch), at: 0.3)
        }
        tick(6)  // footer messages expire
    }

    /// A presence roster on presence-room.
    mutating func roster() {
        client(
            .membersSnapshot(
                channel: "presence-room",
                members: [
                    PresenceMember(id: "alice", info: #"{"name":"Alice"}"#),
                    PresenceMember(id: "me-1", info: #"{"name":"Me"}"#),
                    PresenceMember(id: "bob", info: nil),
                ], myId: "me-1"), at: 0.4)
        client(
            .memberAdded(channel: "presence-room", PresenceMember(id: "carol", info: #"{"city":"Jakarta"}"#)), at: 0.5)
        client(.memberRemoved(channel: "presence-room", memberId: "bob"), at: 0.6)
    }

    /// `n` app events on chat.
    mutating func events(_ n: Int, from: Double = 1, channel: String = "chat") {
        for i in 0..<n {
            client(
                .event(
                    ChannelEventRecord(channel: channel, event: "message", data: #"{"n":\#(i),"text":"hello \#(i)"}"#)),
                at: from + Double(i) * 0.01)
        }
    }
}

/// Lines of a grid.
func lines(_ grid: Grid) -> [String] { grid.lines }

/// Whether some line contains `text`.
func contains(_ grid: Grid, _ text: String) -> Bool { grid.lines.contains { $0.contains(text) } }

/// The line holding `text`, if any.
func line(_ grid: Grid, containing text: String) -> String? { grid.lines.first { $0.contains(text) } }

/// Checks that the four panes are drawn with their exact titles and that every border sits at
/// its column on every row (so nothing inside pushed a border out of place).
func expectPanesFramed(_ grid: Grid, sourceLocation: SourceLocation = #_sourceLocation) {
    let layout = drawnLayout(grid)
    for pane in Pane.allCases {
        let r = layout.rect(pane)
        let right = r.x + r.width - 1, bottom = r.y + r.height - 1
        #expect(grid[r.x, r.y].text == "┌", "\(pane) top-left corner", sourceLocation: sourceLocation)
        #expect(grid[right, r.y].text == "┐", "\(pane) top-right corner", sourceLocation: sourceLocation)
        #expect(grid[r.x, bottom].text == "└", "\(pane) bottom-left corner", sourceLocation: sourceLocation)
        #expect(grid[right, bottom].text == "┘", "\(pane) bottom-right corner", sourceLocation: sourceLocation)
        for y in (r.y + 1)..<bottom {
            #expect(grid[r.x, y].text == "│", "\(pane) left border row \(y)", sourceLocation: sourceLocation)
            #expect(
                grid[right, y].text == "│", "\(pane) right border row \(y): \(grid.lines[y])",
                sourceLocation: sourceLocation)
        }
        let top = grid.lines[r.y]
        #expect(top.contains(" \(pane.rawValue) "), "title \(pane.rawValue)", sourceLocation: sourceLocation)
    }
    for (y, text) in grid.lines.enumerated() {
        #expect(
            DisplayWidth.of(text) == grid.size.width, "row \(y) is \(DisplayWidth.of(text)) columns wide",
            sourceLocation: sourceLocation)
    }
}

/// The layout a grid was drawn with: the Channels pane is as wide as its rows need (when the
/// Connection pane can spare it), so its left corner on the top row says where the split is.
func drawnLayout(_ grid: Grid) -> Layout {
    let w = grid.size.width
    let split = (1..<w).first { grid[$0, 0].text == "┌" } ?? 0
    // The top row's height: where the Events pane's border starts.
    let top = (1..<grid.size.height).first { grid[0, $0].text == "┌" } ?? 0
    return Layout(size: grid.size, channelsWant: split > 0 ? w - split : 0, connectionWant: top)
}

/// The text inside a pane's border, one string per row (cells, so wide characters count once).
func paneRows(_ grid: Grid, _ rect: Rect) -> [String] {
    let inner = rect.inner
    return (inner.y..<(inner.y + inner.height)).map { y in
        (inner.x..<(inner.x + inner.width)).map { grid[$0, y].width == 0 ? "" : grid[$0, y].text }.joined()
    }
}

/// Rows joined with single spaces (wrapped lines read as one text).
func flowed(_ rows: [String]) -> String {
    rows.joined(separator: " ").split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
}
