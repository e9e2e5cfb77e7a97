import Foundation
import WebSocket

/// Our client as the echo agent of an Autobahn|Testsuite fuzzingserver: it asks for the number of
/// cases, runs each case echoing every text and binary message back, and asks the server to write
/// its reports.
struct AutobahnClient {
    let baseURL: URL
    let agent: String
    let caseTimeout: TimeInterval

    /// Runs every case; returns the process exit status (1 when the server could not be used).
    func run() -> Int32 {
        guard let count = caseCount() else {
            emitError("autobahn-client: could not get the case count from \(baseURL)")
            return 1
        }
        emit("autobahn-client: \(count) cases, agent \(agent)")
        let started = Date()
        for number in 1...max(count, 1) where count > 0 {
            let caseStarted = Date()
            guard let url = endpoint("runCase", ["case": "\(number)", "agent": agent]) else { return 1 }
            let connection = Connection(url: url) { event, reply in
                switch event {
                case .text(let text): reply.send(text: text)
                case .binary(let bytes): reply.send(binary: bytes)
                default: break
                }
            }
            connection.connect()
            let end = connection.wait(timeout: caseTimeout)
            let ms = Int(Date().timeIntervalSince(caseStarted) * 1000)
            emit("case \(number)/\(count): \(end.map { "closed \($0.summary)" } ?? "timed out, aborted") in \(ms) ms")
        }
        guard let reports = endpoint("updateReports", ["agent": agent]) else { return 1 }
        let connection = Connection(url: reports) { _, _ in }
        connection.connect()
        guard connection.wait(timeout: 120) != nil else {
            emitError("autobahn-client: updateReports did not finish")
            return 1
        }
        emit("autobahn-client: done in \(Int(Date().timeIntervalSince(started))) s; reports updated")
        return 0
    }

    /// Asks `getCaseCount`: the server sends the count as one text message, then closes.
    private func caseCount() -> Int? {
        guard let url = endpoint("getCaseCount", [:]) else { return nil }
        let box = ValueBox<Int>()
        let connection = Connection(url: url) { event, _ in
            if case .text(let text) = event, let n = Int(text.trimmingCharacters(in: .whitespaces)) { box.set(n) }
        }
        connection.connect()
        let end = connection.wait(timeout: 30)
        if box.value == nil { emitError("autobahn-client: getCaseCount ended with \(end?.summary ?? "a timeout")") }
        return box.value
    }

    /// `baseURL` with `path` and the query items.
    private func endpoint(_ path: String, _ query: KeyValuePairs<String, String>) -> URL? {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { return nil }
        components.path = "/" + path
        components.queryItems = query.isEmpty ? nil : query.map { URLQueryItem(name: $0.key, value: $0.value) }
        return components.url
    }
}

/// A value set from the event queue and read from the main thread.
final class ValueBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var stored: Value?

    /// Stores `value`.
    func set(_ value: Value) { lock.withLock { stored = value } }

    /// The stored value, if any.
    var value: Value? { lock.withLock { stored } }
}
