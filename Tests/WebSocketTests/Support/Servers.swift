import Foundation
import Testing
import TestSupport
@testable import WebSocket

/// Our server with an echo behaviour and commands, for loopback tests.
final class EchoServer: @unchecked Sendable {
    let server: WebSocketServer
    let queue = DispatchQueue(label: "EchoServer")
    let serverEvents = Locked<[Int: [WebSocketEvent]]>([:])
    let connections = Locked<[Int: WebSocketServerConnection]>([:])

    init(configuration: WebSocketServer.Configuration = .init()) throws {
        server = WebSocketServer(configuration: configuration, queue: queue)
        let events = serverEvents
        let connections = self.connections
        server.onConnection = { connection in
            connections.mutate { $0[connection.id] = connection }
            connection.onEvent = { [weak connection] event in
                events.mutate { $0[connection?.id ?? -1, default: []].append(event) }
                guard let connection else { return }
                switch event {
                case .text(let text):
                    if text.hasPrefix("cmd:") {
                        EchoServer.command(String(text.dropFirst(4)), on: connection)
                    } else {
                        connection.send(text: text)
                    }
                case .binary(let bytes):
                    connection.send(binary: bytes)
                default:
                    break
                }
            }
        }
        try server.start()
    }

    /// An echo server serving TLS (`wss://`, `https://`) with `certificates`' certificate and key.
    convenience init(servingTLS certificates: TestCertificates) throws {
        var configuration = WebSocketServer.Configuration()
        configuration.tlsCertificateFile = certificates.certificateFile
        configuration.tlsPrivateKeyFile = certificates.keyFile
        try self.init(configuration: configuration)
    }

    static func command(_ command: String, on connection: WebSocketServerConnection) {
        let parts = command.split(separator: " ", maxSplits: 2).map(String.init)
        switch parts.first {
        case "close": connection.close(code: UInt16(parts[1]) ?? 1000, reason: parts.count > 2 ? parts[2] : "")
        case "drop": connection.drop()
        case "badutf8": connection.sendFrame(opcode: .text, payload: [0x6F, 0x6B, 0xFF])
        case "pause": connection.pauseReading()
        case "burst":
            let count = Int(parts[1]) ?? 1
            connection.send(texts: (0..<count).map { "m\($0)" })
        case "fragments":
            connection.sendFrame(opcode: .text, payload: Array("ab".utf8), fin: false)
            connection.sendFrame(opcode: .ping, payload: [7])
            connection.sendFrame(opcode: .continuation, payload: [0xC3], fin: false)
            connection.sendFrame(opcode: .continuation, payload: [0xA9], fin: true)
        default: connection.send(text: "unknown command")
        }
    }

    /// Returns once the server has received `text` on its first connection and acted on it
    /// (its command ran on the server's queue and what that queued on the socket's loop ran):
    /// a barrier instead of a sleep.
    func processed(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async {
        guard
            await eventually(
                "the server received \(text)", sourceLocation: sourceLocation,
                {
                    allEvents.contains(.text(text))
                })
        else { return }
        queue.sync {}
        connections.get().values.first?.session.loop.executeAndWait {}
    }

    /// Waits until the server has registered a connection and returns the first one.
    func firstConnection(sourceLocation: SourceLocation = #_sourceLocation) async -> WebSocketServerConnection? {
        await eventually("a connection on the server", sourceLocation: sourceLocation) {
            !connections.get().isEmpty
        }
        return connections.get().values.first
    }

    var port: Int { server.port }
    var url: URL { URL(string: "ws://127.0.0.1:\(port)/socket?x=1")! }

    func events(of id: Int) -> [WebSocketEvent] { serverEvents.get()[id] ?? [] }
    var allEvents: [WebSocketEvent] { serverEvents.get().values.flatMap { $0 } }

    func stop() { server.stop() }
}

/// Connects a client and waits for `.opened`.
func openClient(
    _ url: URL, caFile: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
    configure: (inout WebSocketClient.Configuration) -> Void = { _ in }
) async -> (WebSocketClient, EventRecorder) {
    let recorder = EventRecorder()
    var configuration = WebSocketClient.Configuration(url: url, caFile: caFile)
    configure(&configuration)
    let client = WebSocketClient(configuration: configuration, queue: recorder.queue, onEvent: recorder.handler)
    client.connect()
    _ = await recorder.waitOpen(sourceLocation: sourceLocation)
    return (client, recorder)
}
