import Foundation
import WebSocket

/// The receive benchmark's reader: our client counting messages as fast as the sender writes them.
enum BenchRead {
    /// Counts `count` messages from `url`; prints one JSON line; returns the exit status.
    static func run(url: URL, count: Int, timeout: TimeInterval) -> Int32 {
        let counter = Counter(target: count)
        let started = DispatchTime.now()
        let connection = Connection(url: url) { event, reply in
            switch event {
            case .text(let text): counter.add(bytes: text.utf8.count)
            case .binary(let bytes): counter.add(bytes: bytes.count)
            default: return
            }
            if counter.finished == nil && counter.received >= count {
                counter.finished = DispatchTime.now()
                reply.close(code: 1000)
            }
        }
        connection.connect()
        let end = connection.wait(timeout: timeout)
        guard let finished = counter.finished else {
            emitError(
                "bench-read: received \(counter.received) of \(count) messages; connection ended with \(end?.summary ?? "a timeout")"
            )
            return 1
        }
        let elapsed = Double(finished.uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let result: [String: Any] = [
            "messages": counter.received,
            "bytes": counter.bytes,
            "elapsed_s": elapsed,
            "messages_per_s": Double(counter.received) / elapsed,
            "mb_per_s": Double(counter.bytes) / elapsed / 1e6,
        ]
        guard let json = try? JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]) else { return 1 }
        emit(String(decoding: json, as: UTF8.self))
        return 0
    }

    /// Counts messages; touched only on the connection's serial event queue until `wait` returns.
    final class Counter: @unchecked Sendable {
        // @unchecked: mutated only on the connection's serial queue; read after it has finished.
        let target: Int
        var received = 0
        var bytes = 0
        var finished: DispatchTime?

        init(target: Int) { self.target = target }

        func add(bytes count: Int) {
            received += 1
            bytes += count
        }
    }
}
