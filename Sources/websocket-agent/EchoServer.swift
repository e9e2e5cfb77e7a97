import Foundation
import WebSocket

/// Our WebSocketServer echoing every text and binary message (Autobahn's fuzzingclient target).
enum EchoServer {
    /// Starts the server and runs until SIGINT or SIGTERM. Never returns.
    static func run(host: String, port: Int) -> Never {
        let queue = DispatchQueue(label: "websocket-agent.echo-server")
        let server = WebSocketServer(configuration: .init(host: host, port: port), queue: queue)
        server.onConnection = { connection in
            connection.onEvent = { [weak connection] event in
                switch event {
                case .text(let text): connection?.send(text: text)
                case .binary(let bytes): connection?.send(binary: bytes)
                default: break
                }
            }
        }
        do {
            try server.start()
        } catch {
            emitError("echo-server: cannot listen on \(host):\(port): \(error)")
            exit(1)
        }
        emit("echo-server: listening on \(host):\(server.port)")
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler {
                server.stop()
                emit("echo-server: stopped")
                exit(0)
            }
            source.resume()
            sources.append(source)
        }
        withExtendedLifetime(sources) { dispatchMain() }
    }
}
