// How client events change the model.

import BirdWire
import Foundation

extension Inspector {
    static func apply(_ event: ClientEvent, at: Date, to model: inout Model) {
        model.log.append(event, at: at)
        model.timeline.record(event, at: at)
        if model.paused { model.missedWhilePaused += 1 }

        switch event {
        case .stateChanged(let change):
            var c = model.connection
            c.state = change.current
            c.since = at
            c.lastCause = change.cause
            c.transitions += 1
            if let cause = change.cause, let code = cause.closeCode {
                if case .closed(_, let reason, _) = cause {
                    c.lastClose = (code, reason)
                } else {
                    c.lastClose = (code, cause == .pongTimeout ? "pong timeout" : "")
                }
            }
            // Waiting for the network schedules nothing: a countdown still shown would be a lie.
            if change.current != .unavailable || c.waitingForNetwork {
                c.nextAttemptAt = nil
                c.retryDelay = nil
                if c.waitingForNetwork { c.attempt = nil }
            }
            // An attempt that does not ask a provider leaves no endpoint question open.
            if change.current != .connecting, c.endpoint == .resolving { c.endpoint = nil }
            if change.current == .connected {
                c.connectionId = change.connectionId ?? c.connectionId
                c.activityTimeout = change.activityTimeout ?? c.activityTimeout
                c.attempt = nil
                for i in model.channels.indices where model.channels[i].status == .waitingForReconnect {
                    model.channels[i].status = .subscribing
                }
            } else if change.previous == .connected {
                for i in model.channels.indices {
                    switch model.channels[i].status {
                    case .subscribed, .subscribing: model.channels[i].status = .waitingForReconnect
                    default: break
                    }
                }
            }
            model.connection = c
        case .retryScheduled(let retry):
            model.connection.nextAttemptAt = Checked.date(at, plus: retry.delay.seconds)
            model.connection.retryDelay = retry.delay
            model.connection.attempt = retry.attempt
        case .subscribed(let name, let continuity):
            let i = ensureChannel(name, &model)
            model.channels[i].status = .subscribed
            model.channels[i].continuity = continuity
        case .subscriptionError(let name, let failure):
            let i = ensureChannel(name, &model)
            model.channels[i].status = .failed(failure)
            // The roster is unknown now (not merely old): showing it would mislead.
            model.channels[i].members = []
            model.channels[i].myId = nil
        case .event(let e):
            if let i = model.channelIndex(e.channel) {
                model.channels[i].events += 1
                if let offset = e.offset { model.channels[i].lastOffset = offset }
                model.channels[i].rate.record(at: at)
            }
        case .membersSnapshot(let name, let members, let myId):
            let i = ensureChannel(name, &model)
            model.channels[i].members = members.sorted { $0.id < $1.id }
            model.channels[i].myId = myId
        case .memberAdded(let name, let member):
            let i = ensureChannel(name, &model)
            var list = model.channels[i].members.filter { $0.id != member.id }
            list.append(member)
            model.channels[i].members = list.sorted { $0.id < $1.id }
        case .memberRemoved(let name, let id):
            if let i = model.channelIndex(name) { model.channels[i].members.removeAll { $0.id == id } }
        case .connectionCount(let name, let count):
            if let i = model.channelIndex(name) { model.channels[i].connectionCount = count }
        case .signinSucceeded(let id, _):
            model.connection.memberId = id
            say("signed in as \(id)", &model)
        case .signinFailed(let message):
            refuse("sign-in failed: \(Redaction.scrub(message))", &model)
        case .error(let report):
            if report.isDecryptionFailure, let name = report.channel, let i = model.channelIndex(name) {
                model.channels[i].decryptionFailures += 1
                model.channels[i].lastDecryptionProblem = report.message
            }
            if let code = report.code, (4000...4099).contains(code) || (1000...1015).contains(code) {
                model.connection.lastClose = (code, report.reason ?? "")
            }
        case .sent(let name, let event, _):
            // Counted on its channel like a received event, and said in the footer for a while
            // (in a busy log the line itself scrolls away fast).
            if let i = model.channelIndex(name) {
                model.channels[i].events += 1
                model.channels[i].sent += 1
                model.channels[i].rate.record(at: at)
            }
            say("sent \(event) on \(name)", &model)
        case .networkPath(let path):
            model.connection.networkPath = path
        case .endpoint(let endpoint):
            model.connection.endpoint = endpoint
        case .commandError(let command, let message):
            refuse("\(command): \(message)", &model)
        case .roundTrip(let rtt):
            model.connection.roundTrips.append(rtt)
            let excess = model.connection.roundTrips.count - ConnectionInfo.roundTripHistory
            if excess > 0 { model.connection.roundTrips.removeFirst(excess) }
        case .scenario(let step):
            if let back = step.edgeBackAt { model.connection.edgeBackAt = back }
        case .dropped(let count, let wire, let since):
            model.dropped.events += max(0, count)
            model.dropped.wire += max(0, wire)
            model.dropped.lastSince = since
        }
    }

    private static func ensureChannel(_ name: String, _ model: inout Model) -> Int {
        if let i = model.channelIndex(name) { return i }
        model.channels.append(ChannelInfo(name: name, status: .subscribing))
        return model.channels.count - 1
    }
}

extension Duration {
    /// The duration in seconds as a Double.
    var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) / 1e18
    }
}
