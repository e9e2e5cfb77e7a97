// The Connection pane: state, backoff countdown, causes, close codes, endpoint, identity.

import BirdWire
import Foundation

extension Inspector {
    /// Text lines (with styles) of the Connection pane at content width `width`.
    static func connectionLines(_ model: Model, width: Int) -> [[(String, CellStyle)]] {
        let c = model.connection
        let label = CellStyle(.dim)
        var lines: [[(String, CellStyle)]] = []
        func wrapped(_ title: String, _ text: String, _ style: CellStyle) {
            let pad = String(repeating: " ", count: DisplayWidth.of(title))
            for (i, part) in DisplayWidth.wrap(text, width: max(1, width - DisplayWidth.of(title))).enumerated() {
                lines.append([(i == 0 ? title : pad, label), (part, style)])
            }
        }

        // Replay position.
        if let r = model.playback {
            for part in DisplayWidth.wrap(r.statusText, width: max(1, width)) {
                lines.append([(part, CellStyle(r.finished ? .good : .accent, bold: true))])
            }
        }

        // State and since when.
        var state: [(String, CellStyle)] = [
            ("● ", CellStyle(stateRole(c.state), bold: true)),
            (c.state.rawValue, CellStyle(stateRole(c.state), bold: true)),
        ]
        if let since = c.since {
            let ago = TimeText.duration(model.now.timeIntervalSince(since))
            state.append(
                (
                    "  since \(TimeText.clockSeconds(since, utcOffsetSeconds: model.config.utcOffsetSeconds)) (\(ago))",
                    label
                ))
        }
        lines.append(state)

        // Backoff countdown, or why there is none: no network, nothing scheduled.
        if c.waitingForNetwork {
            lines.append([
                ("retry: ", label), ("waiting for network", CellStyle(.warn, bold: true)),
                (" (nothing scheduled)", label),
            ])
        } else if c.state == .unavailable, let next = c.nextAttemptAt {
            let left = max(0, next.timeIntervalSince(model.now))
            var row: [(String, CellStyle)] = [
                ("retry: ", label),
                (RetryText.label(attempt: c.attempt ?? 0, delay: left), CellStyle(.warn, bold: true)),
            ]
            if let total = c.retryDelay?.seconds, total > 0, width >= 40 {
                let cells = 10
                let done = Checked.int(Double(cells) * (1 - left / total), .down)
                row.append(
                    (
                        "  ▕" + String(repeating: "█", count: min(cells, max(0, done)))
                            + String(repeating: "░", count: cells - min(cells, max(0, done))) + "▏", CellStyle(.warn)
                    ))
            }
            lines.append(row)
        }

        // Events the inspector could not keep up with (never silent).
        if model.dropped.events > 0 || model.dropped.wire > 0 {
            wrapped(
                "", DroppedText.text(count: model.dropped.events, wire: model.dropped.wire),
                CellStyle(.warn, bold: true))
        }

        // Cause of the last transition, and the last close code.
        if let cause = c.lastCause {
            if case .closed(let code, let reason, let by) = cause {
                wrapped(
                    "cause: ",
                    "\(by == .server ? "server" : "client") closed \(CloseCodeText.describe(code: code, reason: reason))",
                    CellStyle(closeRole(code)))
            } else if let code = cause.closeCode {
                wrapped(
                    "cause: ", "\(cause.text) → \(CloseCodeText.describe(code: code, reason: nil))",
                    CellStyle(closeRole(code)))
            } else {
                wrapped("cause: ", cause.text, CellStyle(.normal))
                if let close = c.lastClose {
                    wrapped(
                        "last close: ", CloseCodeText.describe(code: close.code, reason: close.reason), CellStyle(.dim))
                }
            }
        } else if let close = c.lastClose {
            wrapped("last close: ", CloseCodeText.describe(code: close.code, reason: close.reason), CellStyle(.dim))
        }

        // Identity and endpoint.
        if let id = c.connectionId {
            lines.append([
                ("id: ", label), (id, CellStyle(c.state == .connected ? .normal : .dim)),
                (c.state == .connected ? "" : " (previous)", label),
            ])
        } else {
            lines.append([("id: ", label), ("—", label)])
        }
        lines.append([
            ("member: ", label),
            c.memberId.map { ($0, CellStyle(.info, bold: true)) } ?? ("not signed in", label),
        ])
        lines.append(networkLine(model, label: label))
        lines.append(contentsOf: edgeLines(model, label: label))
        // A `--scenario` restart: when the edge takes connections again (derived from the step).
        if let back = c.edgeBackAt {
            let clock = TimeText.clockSeconds(back, utcOffsetSeconds: model.config.utcOffsetSeconds)
            lines.append(
                back > model.now
                    ? [("scenario: ", label), ("edge down until \(clock)", CellStyle(.warn, bold: true))]
                    : [("scenario: ", label), ("edge back at \(clock)", CellStyle(.accent))])
        }
        // The latest protocol ping's round-trip time and a summary of the last ones.
        lines.append([
            ("rtt: ", label), RoundTripText.summary(c.roundTrips).map { ($0, CellStyle.plain) } ?? ("—", label),
        ])
        // The activity timeout in force: the library's negotiated value (the handshake's when lower)
        // once connected; until then the option.
        let activity =
            c.activityTimeout.map { TimeText.seconds($0) }
            ?? "\(TimeText.seconds(model.config.activityTimeout)) (option)"
        lines.append([
            ("timeouts: ", label),
            ("activity \(activity) · pong \(TimeText.seconds(model.config.pongTimeout))", .plain),
        ])
        return lines
    }

    /// `network: default via eth0 (IPv4)` (up), `network: down · no default route`, or the
    /// configured note until the client reports a path.
    static func networkLine(_ model: Model, label: CellStyle) -> [(String, CellStyle)] {
        guard let path = model.connection.networkPath else {
            return [("network: ", label), (model.config.networkNote, label)]
        }
        return path.usable
            ? [("network: ", label), ("up", CellStyle(.good, bold: true)), (" · " + path.description, .plain)]
            : [
                ("network: ", label), ("down", CellStyle(.bad, bold: true)),
                (" · " + path.description, CellStyle(.bad)),
            ]
    }

    /// The edge: the endpoint provider's answer when there is one (or that it is being asked, or
    /// failed), else the host, port and TLS the inspector was started with; then the dialect.
    static func edgeLines(_ model: Model, label: CellStyle) -> [[(String, CellStyle)]] {
        let config = model.config
        var note = " · \(config.dialect)" + (config.edgeNote.map { " · \($0)" } ?? "")
        let text: String
        var style = CellStyle.plain
        switch model.connection.endpoint {
        case nil:
            text = "\(config.host):\(config.port) · TLS \(config.tls ? "on" : "off")"
        case .resolving?:
            text = "resolving endpoint…"
            style = CellStyle(.warn, bold: true)
        case .resolved(let host, let port, let tls, _, let names)?:
            text = "\(EndpointRecord.hostPort(host: host, port: port, tls: tls)) · TLS \(tls ? "on" : "off")"
            note +=
                " · resolved for this attempt" + (names.isEmpty ? "" : " · headers \(names.joined(separator: ", "))")
        case .failed(let reason)?:
            text = "endpoint unavailable: \(Redaction.scrub(reason))"
            style = CellStyle(.bad)
            note = ""
        }
        return [[("edge: ", label), (text, style), (note, .plain)]]
    }

    static func closeRole(_ code: Int) -> ColorRole {
        switch CloseCode.band(code) {
        case .refused: return .bad
        case .immediate: return .info
        case .backoff, .errorEvent, .standard: return .warn
        }
    }

    static func drawConnection(_ model: Model, _ rect: Rect, _ grid: inout Grid) {
        grid.box(
            rect, title: Pane.connection.rawValue, focused: model.focus == .connection,
            rightLabel: model.connection.transitions > 0 ? "\(model.connection.transitions) transitions" : nil)
        let inner = rect.inner
        let lines = fitConnection(connectionLines(model, width: inner.width), rows: inner.height)
        for (row, line) in lines.prefix(inner.height).enumerated() {
            putLine(line, x: inner.x, y: inner.y + row, width: inner.width, &grid)
        }
    }
}
