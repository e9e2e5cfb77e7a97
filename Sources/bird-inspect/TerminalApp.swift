// The interactive main loop: key-or-tick via wtimeout + wget_wch, messages into `update`,
// commands out to the feed, redraws coalesced to at most 30 per second.

import BirdInspector
import Foundation

/// Runs the TUI until `q`, `:quit`, SIGINT/SIGTERM or `--duration`.
func runTerminalApp(options: InspectorOptions) -> Int32 {
    installStopHandlers()
    let start = Date()
    let terminal = CursesTerminal()
    defer { terminal.end() }

    let offset = TimeZone.current.secondsFromGMT(for: start)
    var model = Model(config: options.config(utcOffsetSeconds: offset, edgeNote: "DemoFeed — simulated"),
                      now: start, size: terminal.size)
    let demoChannels = options.subscribe.isEmpty
        ? ["demo-public", "private-demo", "presence-demo"] : options.subscribe
    let feed = DemoFeed(now: start, rate: options.demoRate, channels: demoChannels, signin: options.signin)
    for ch in demoChannels where model.channelIndex(ch) == nil {
        model.channels.append(ChannelInfo(name: ch, status: .subscribing))
    }
    let inbox = MessageInbox()  // the real client's callbacks will post here

    let frameInterval = 1.0 / 30
    let tickInterval = 0.1
    var lastDraw = Date.distantPast
    var lastTick = start
    var dirty = true
    while stopRequested == 0 {
        let now = Date()
        if let duration = options.duration, now.timeIntervalSince(start) >= duration { break }
        var messages: [Message] = []
        switch terminal.read(timeoutMilliseconds: dirty ? 10 : 33) {
        case .key(let key): messages.append(.key(key))
        case .resize(let size): messages.append(.resize(size))
        case .none: break
        }
        let after = Date()
        messages += feed.poll(now: after)
        messages += inbox.drain(limit: 5000)
        if after.timeIntervalSince(lastTick) >= tickInterval {
            messages.append(.tick(now: after))
            lastTick = after
        }
        for message in messages {
            for command in Inspector.update(&model, message) {
                if command == .quit { return 0 }
                feed.perform(command, now: after)
            }
        }
        if !messages.isEmpty { dirty = true }
        if dirty && after.timeIntervalSince(lastDraw) >= frameInterval {
            terminal.draw(Inspector.view(model, size: terminal.size))
            lastDraw = after
            dirty = false
        }
    }
    return 0
}
