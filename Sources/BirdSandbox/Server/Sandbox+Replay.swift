import BirdWire
import Dispatch
import Foundation
import WebSocket

/// The sandbox's side of `--replay` (``SandboxConfiguration/replay``): the glue between the
/// WebSocket server and the ``ServerReplayer``. `Sandbox.accept` offers every connection to
/// ``replayAccept(_:link:)`` first.
extension Sandbox {
    /// Creates the player when a replay is configured (once, lazily, on the sandbox's queue).
    func makeReplayPlayer(queue: DispatchQueue) -> ServerReplayer? {
        guard let plan = configuration.replay else { return nil }
        let sink = configuration.replayLog
        return ServerReplayer(plan: plan, scheduler: DispatchScenarioScheduler(queue: queue)) { line in sink?(line) }
    }

    /// Gives an accepted connection to the replay when the recording has a segment left for it;
    /// false when the edge should serve it. On the queue.
    func replayAccept(_ connection: WebSocketServerConnection, link: ServerLink) -> Bool {
        guard let player = replayPlayer,
            let number = player.accept(link: link, remote: connection.remoteAddress)
        else { return false }
        connection.onEvent = { [weak player] event in
            guard let player else { return }
            switch event {
            case .text(let text): player.received(text: text, segment: number)
            case .binary: player.receivedBinary(segment: number)
            case .closed(let info): player.closed(segment: number, code: Int(info.code), reason: info.reason)
            case .opened, .ping, .pong: break
            }
        }
        return true
    }

    /// Closes the connections the replay drives with `code` and stops playing, waiting up to
    /// `grace` seconds for their close handshakes. ``stop(code:reason:grace:)`` calls it first;
    /// call it alone to end a replay and keep the edge serving. Does nothing without a replay.
    public func stopReplay(code: Int = CloseCode.edgeRestarting, reason: String = "edge restarting", grace: Double = 1)
    {
        guard configuration.replay != nil else { return }
        onQueue { replayPlayer?.stop(code: code, reason: reason) }
        let deadline = Date().addingTimeInterval(grace)
        while Date() < deadline, onQueue({ (replayPlayer?.openCount ?? 0) > 0 }) { usleep(10_000) }
    }
}
