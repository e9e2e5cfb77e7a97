import BirdWire
import Foundation
import WebSocket

/// The control API (PROTOCOL.md D) as HTTP: routes `/sandbox/…` requests to the edge and to the
/// sandbox's timed actions. Answers JSON. Loopback callers only (checked by the router).
struct ControlAPI {
    let edge: Edge
    /// Closes all with the code, stops listening for the seconds, listens again.
    let restart: @Sendable (_ code: Int, _ reason: String, _ downSeconds: Double) -> Void
    /// Publishes `count` events at `rate` per second (0: as fast as possible).
    let burst: @Sendable (_ channel: String, _ event: String, _ data: JSONValue?, _ count: Int, _ rate: Double) -> Void

    /// What the router does: the response, and an action to run after it was sent.
    struct Outcome {
        var response: HTTPResponse
        var afterResponse: (@Sendable () -> Void)?
    }

    func handle(_ request: HTTPRequest) -> Outcome {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.first == "sandbox" else { return fail(404, "not found") }
        let route = Array(parts.dropFirst())
        let body: [String: JSONValue]
        if request.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            body = [:]
        } else if let object = (try? JSONValue(parsing: String(decoding: request.body, as: UTF8.self)))?.dictionaryValue {
            body = object
        } else {
            return fail(400, "body must be a JSON object")
        }
        switch (request.method, route.count) {
        case ("GET", 0):
            return ok(["calls": .array(ControlAPI.calls.map { .string($0) })])
        case ("GET", 1) where route[0] == "connections":
            return Outcome(
                response: .json(200, JSONValue.array(edge.connectionInfos().map(ControlAPI.json)).description))
        case ("POST", 3) where route[0] == "connections":
            return connectionCall(id: route[1], action: route[2], body: body)
        case ("POST", 1) where route[0] == "close-all":
            guard let (code, reason) = closeArguments(body) else { return fail(400, "invalid close code") }
            return ok(["closed": .number(JSONNumber(edge.closeAll(code: code, reason: reason)))])
        case ("POST", 1) where route[0] == "refuse":
            guard let (code, reason) = closeArguments(body, defaultCode: 4100, defaultReason: "over capacity") else {
                return fail(400, "invalid close code")
            }
            let seconds = body["seconds"]?.doubleValue
            edge.refuse(code: code, reason: reason, seconds: seconds.flatMap { $0 > 0 ? $0 : nil })
            return ok()
        case ("DELETE", 1) where route[0] == "refuse":
            edge.clearRefusal()
            return ok()
        case ("POST", 1) where route[0] == "handshake":
            let omit = body["omit_id"]?.boolValue ?? true
            let count = body["count"]?.intValue ?? 1
            guard count >= 0 else { return fail(400, "count must be ≥ 0") }
            edge.omitHandshakeIds = omit ? count : 0
            return ok(["omit_id_count": .number(JSONNumber(edge.omitHandshakeIds))])
        case ("POST", 1) where route[0] == "restart":
            guard let (code, reason) = closeArguments(body, defaultCode: 4200, defaultReason: "edge restarting") else {
                return fail(400, "invalid close code")
            }
            let down = body["down_seconds"]?.doubleValue ?? 1
            guard down >= 0, down <= 3600 else { return fail(400, "down_seconds must be 0…3600") }
            return Outcome(
                response: .json(200, "{\"ok\":true}"), afterResponse: { [restart] in restart(code, reason, down) })
        case ("POST", 1) where route[0] == "auth-failure":
            let status = body["status"]?.intValue ?? 500
            guard (100...599).contains(status) else { return fail(400, "status must be an HTTP status") }
            edge.authFailure = (status, body["prefix"]?.stringValue)
            return ok()
        case ("DELETE", 1) where route[0] == "auth-failure":
            edge.authFailure = nil
            return ok()
        case ("POST", 1) where route[0] == "publish":
            guard let channel = body["channel"]?.stringValue, let event = body["event"]?.stringValue else {
                return fail(400, "publish needs channel and event")
            }
            return ok([
                "delivered": .number(JSONNumber(edge.publishUnsigned(channel: channel, event: event, data: body["data"])))
            ])
        case ("POST", 1) where route[0] == "burst":
            guard let channel = body["channel"]?.stringValue, let event = body["event"]?.stringValue else {
                return fail(400, "burst needs channel and event")
            }
            let count = body["count"]?.intValue ?? 10
            let rate = body["rate"]?.doubleValue ?? 0
            guard (0...1_000_000).contains(count) else { return fail(400, "count must be 0…1000000") }
            guard rate >= 0, rate <= 100_000 else { return fail(400, "rate must be 0…100000 per second") }
            let data = body["data"]
            return Outcome(
                response: .json(200, "{\"ok\":true}"),
                afterResponse: { [burst] in burst(channel, event, data, count, rate) })
        default:
            return fail(404, "no such control call: \(request.method) \(String(request.path.prefix(200)))")
        }
    }

    private func connectionCall(id: String, action: String, body: [String: JSONValue]) -> Outcome {
        let found: Bool
        switch action {
        case "close":
            guard let (code, reason) = closeArguments(body) else { return fail(400, "invalid close code") }
            found = edge.closeConnection(id: id, code: code, reason: reason)
        case "drop":
            found = edge.dropConnection(id: id)
        case "silence":
            found = edge.silence(id: id)
        case "send":
            let payload: [UInt8]
            let binary: Bool
            if let text = body["text"]?.stringValue {
                payload = Array(text.utf8)
                binary = false
            } else if let encoded = body["base64"]?.stringValue {
                guard let data = Data(base64Encoded: encoded) else { return fail(400, "base64 is not valid") }
                payload = Array(data)
                let opcode = body["opcode"]?.stringValue ?? "binary"
                guard opcode == "text" || opcode == "binary" else { return fail(400, "opcode must be text or binary") }
                binary = opcode == "binary"
            } else {
                return fail(400, "send needs text, or opcode and base64")
            }
            found = edge.sendRaw(id: id, binary: binary, payload: payload)
        default:
            return fail(404, "no such connection call: \(action)")
        }
        return found ? ok() : fail(404, "no connection \(String(id.prefix(100)))")
    }

    /// `code` and `reason` from a body; nil when the code cannot go in a close frame.
    private func closeArguments(
        _ body: [String: JSONValue], defaultCode: Int = 4200, defaultReason: String = "closed by the sandbox"
    ) -> (Int, String)? {
        let code = body["code"]?.intValue ?? defaultCode
        guard ControlAPI.isSendableCloseCode(code) else { return nil }
        var reason = body["reason"]?.stringValue ?? defaultReason
        while reason.utf8.count > 123 { reason.removeLast() }  // a close frame's reason is ≤ 123 bytes
        return (code, reason)
    }

    /// Close codes that may appear in a close frame (RFC 6455 7.4).
    static func isSendableCloseCode(_ code: Int) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }

    private func ok(_ extra: [String: JSONValue] = [:]) -> Outcome {
        var object = extra
        object["ok"] = true
        return Outcome(response: .json(200, JSONValue.object(JSONObject(object)).description))
    }

    private func fail(_ status: Int, _ message: String) -> Outcome {
        Outcome(response: .json(status, JSONValue.object(["error": .string(message)]).description))
    }

    static func json(_ info: SandboxConnectionInfo) -> JSONValue {
        [
            "id": .string(info.id), "member_id": info.memberId.map { .string($0) } ?? .null,
            "channels": .array(info.channels.map { .string($0) }), "remote": .string(info.remote),
            "connected_at": .string(isoTimestamp(info.connectedAt)),
        ]
    }

    /// UTC ISO-8601 with milliseconds.
    static func isoTimestamp(_ unix: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: unix))
    }

    static let calls = [
        "GET /sandbox/connections", "POST /sandbox/connections/{id}/close {code,reason}",
        "POST /sandbox/close-all {code,reason}", "POST /sandbox/connections/{id}/drop",
        "POST /sandbox/connections/{id}/silence", "POST /sandbox/refuse {code,reason,seconds}",
        "DELETE /sandbox/refuse",
        "POST /sandbox/handshake {omit_id,count}", "POST /sandbox/restart {code,down_seconds}",
        "POST /sandbox/auth-failure {status,prefix?}", "DELETE /sandbox/auth-failure",
        "POST /sandbox/connections/{id}/send {text} | {opcode,base64}", "POST /sandbox/publish {channel,event,data}",
        "POST /sandbox/burst {channel,event,data,count,rate}",
    ]
}
