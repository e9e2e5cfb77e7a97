import BirdWire
import Foundation
import WebSocket

/// docs/PROTOCOL.md § Sandbox control API as HTTP: routes `/sandbox/…` requests to the edge and to the
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

    /// Seconds a refusal (`refuse`) may last: a day.
    static let maxRefuseSeconds = 86_400.0
    /// Seconds a `restart` may keep the port closed: an hour.
    static let maxDownSeconds = 3_600.0
    /// Events one `burst` may publish.
    static let maxBurstCount = 1_000_000
    /// Highest `burst` rate, events per second.
    static let maxBurstRate = 100_000.0
    /// Lowest `burst` rate other than 0 (0 = as fast as possible), events per second.
    static let minBurstRate = 0.01
    /// Handshakes `handshake` may strip of their id.
    static let maxOmitCount = 1_000_000
    /// Longest close reason: a close frame holds 123 bytes of it.
    static let maxReasonBytes = 123
    /// Longest `auth-failure` prefix.
    static let maxPrefixBytes = Limits.maxChannelNameLength

    /// Answers a control request: the gate (``ControlAPIGate``), the route, then every field's
    /// type and range (400 naming the field), then the action.
    func handle(_ request: HTTPRequest) -> Outcome {
        if let refusal = ControlAPIGate.refusal(
            method: request.method, headers: request.headers, hasBody: !request.body.isEmpty,
            listenHost: edge.configuration.host)
        {
            return fail(refusal.status, refusal.message)
        }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.first == "sandbox" else { return fail(404, "not found") }
        let route = Array(parts.dropFirst())
        guard let fields = ControlFields(bytes: request.body) else { return fail(400, "body must be a JSON object") }
        do {
            return try perform(request, route: route, fields: fields)
        } catch {
            return fail(400, error.message)
        }
    }

    private func perform(_ request: HTTPRequest, route: [String], fields: ControlFields) throws(ControlFieldError)
        -> Outcome
    {
        switch (request.method, route.count) {
        case ("OPTIONS", _):
            // No CORS grant: a browser never lets a page send a JSON body here or read an answer.
            return Outcome(response: HTTPResponse(status: 204, headers: ["Allow": "GET, POST, DELETE, OPTIONS"]))
        case ("GET", 0):
            return Outcome(
                response: .json(
                    200, "{\"calls\":\(JSONValue.array(ControlAPI.calls.map { .string($0) }).description),\"ok\":true}")
            )
        case ("GET", 1) where route[0] == "connections":
            return Outcome(
                response: .json(200, JSONValue.array(edge.connectionInfos().map(ControlAPI.json)).description))
        case ("POST", 3) where route[0] == "connections":
            return try connectionCall(id: route[1], action: route[2], fields: fields)
        case ("POST", 1) where route[0] == "close-all":
            let code = try fields.closeCode(default: CloseCode.edgeRestarting)
            let reason = try fields.string("reason", default: "closed by the sandbox", maxBytes: Self.maxReasonBytes)
            return ok(["closed": edge.closeAll(code: code, reason: reason)])
        case ("POST", 1) where route[0] == "refuse":
            let code = try fields.closeCode(default: 4100)
            let reason = try fields.string("reason", default: "over capacity", maxBytes: Self.maxReasonBytes)
            let seconds = try fields.number("seconds", default: 0, in: 0...Self.maxRefuseSeconds, unit: "seconds")
            edge.refuse(code: code, reason: reason, seconds: seconds > 0 ? seconds : nil)
            return ok()
        case ("DELETE", 1) where route[0] == "refuse":
            edge.clearRefusal()
            return ok()
        case ("POST", 1) where route[0] == "handshake":
            let omit = try fields.bool("omit_id", default: true)
            let count = try fields.int("count", default: 1, in: 0...Self.maxOmitCount)
            edge.omitHandshakeIds = omit ? count : 0
            return ok(["omit_id_count": edge.omitHandshakeIds])
        case ("POST", 1) where route[0] == "restart":
            let code = try fields.closeCode(default: CloseCode.edgeRestarting)
            let reason = try fields.string("reason", default: "edge restarting", maxBytes: Self.maxReasonBytes)
            let down = try fields.number("down_seconds", default: 1, in: 0...Self.maxDownSeconds, unit: "seconds")
            return Outcome(response: okResponse(), afterResponse: { [restart] in restart(code, reason, down) })
        case ("POST", 1) where route[0] == "auth-failure":
            // Failures only: a 1xx status cannot end a response and 2xx/3xx are not failures.
            let status = try fields.int("status", default: 500, in: 400...599)
            let prefix = try fields.optionalString("prefix", maxBytes: Self.maxPrefixBytes)
            edge.authFailure = (status, prefix)
            return ok()
        case ("DELETE", 1) where route[0] == "auth-failure":
            edge.authFailure = nil
            return ok()
        case ("POST", 1) where route[0] == "publish":
            let (channel, event) = try publishTarget(fields)
            let data = try edge.controlPublishData(
                channel: channel, data: fields.body["data"], encrypt: fields.bool("encrypted", default: true))
            return ok(["delivered": edge.publishUnsigned(channel: channel, event: event, data: data)])
        case ("POST", 1) where route[0] == "burst":
            let (channel, event) = try publishTarget(fields)
            let count = try fields.int("count", default: 10, in: 0...Self.maxBurstCount)
            let rate = try fields.number("rate", default: 0, in: 0...Self.maxBurstRate, unit: "events per second")
            guard rate == 0 || rate >= Self.minBurstRate else {
                throw ControlFieldError(
                    message: "rate must be 0 (as fast as possible) or \(Self.minBurstRate)…"
                        + "\(ControlFields.amount(Self.maxBurstRate)) events per second, not \(rate)")
            }
            // Sealed once for the whole burst (its message is encoded once): every event carries
            // the same envelope.
            let data = try edge.controlPublishData(
                channel: channel, data: fields.body["data"], encrypt: fields.bool("encrypted", default: true))
            return Outcome(
                response: okResponse(), afterResponse: { [burst] in burst(channel, event, data, count, rate) })
        case ("POST", 2) where route[0] == "encryption" && route[1] == "rotate":
            let key = try Self.masterKey(fields)
            let had = edge.rotateEncryptionMasterKey(to: key)
            return ok(["replaced": had ? 1 : 0])
        default:
            return fail(404, "no such control call: \(request.method) \(String(request.path.prefix(200)))")
        }
    }

    /// The optional `master_key` of a rotation: standard base64 of 32 bytes. Errors never show
    /// the value (it may be a key).
    static func masterKey(_ fields: ControlFields) throws(ControlFieldError) -> EncryptionMasterKey? {
        guard let value = fields.body["master_key"] else { return nil }
        guard let text = value.stringValue else {
            throw ControlFieldError(message: "master_key must be a string: standard base64 of 32 bytes")
        }
        do {
            return try EncryptionMasterKey(base64: text)
        } catch {
            throw ControlFieldError(message: "master_key: \(error)")
        }
    }

    /// `channel` and `event` of a publish or burst.
    private func publishTarget(_ fields: ControlFields) throws(ControlFieldError) -> (String, String) {
        let channel = try fields.string("channel", default: nil, maxBytes: 2 * Limits.maxChannelNameLength)
        guard edge.isPublishableChannel(channel) else {
            throw ControlFieldError(
                message: "channel must be a channel name (1–200 of A-Z a-z 0-9 _ - = @ , . ;, or a member channel), "
                    + "not \(ControlFields.show(.string(channel)))")
        }
        let event = try fields.string("event", default: nil, maxBytes: Limits.maxEventNameLength, nonEmpty: true)
        return (channel, event)
    }

    private func connectionCall(id: String, action: String, fields: ControlFields) throws(ControlFieldError)
        -> Outcome
    {
        let found: Bool
        switch action {
        case "close":
            let code = try fields.closeCode(default: CloseCode.edgeRestarting)
            let reason = try fields.string("reason", default: "closed by the sandbox", maxBytes: Self.maxReasonBytes)
            found = edge.closeConnection(id: id, code: code, reason: reason)
        case "drop":
            found = edge.dropConnection(id: id)
        case "silence":
            found = edge.silence(id: id)
        case "send":
            let payload: [UInt8]
            let binary: Bool
            switch (fields.has("text"), fields.has("base64")) {
            case (true, true):
                throw ControlFieldError(message: "send takes text, or opcode and base64, not both")
            case (true, false):
                guard !fields.has("opcode") else {
                    throw ControlFieldError(message: "opcode goes with base64, not text")
                }
                payload = Array(try fields.string("text", default: nil, maxBytes: Int.max).utf8)
                binary = false
            case (false, true):
                let encoded = try fields.string("base64", default: nil, maxBytes: Int.max)
                guard let data = Data(base64Encoded: encoded) else {
                    throw ControlFieldError(message: "base64 must be valid base64")
                }
                payload = Array(data)
                let opcode = try fields.string("opcode", default: "binary", maxBytes: 16)
                guard opcode == "text" || opcode == "binary" else {
                    throw ControlFieldError(
                        message: "opcode must be \"text\" or \"binary\", not \(ControlFields.show(.string(opcode)))")
                }
                binary = opcode == "binary"
            case (false, false):
                throw ControlFieldError(message: "send needs text, or opcode and base64")
            }
            found = edge.sendRaw(id: id, binary: binary, payload: payload)
        default:
            return fail(404, "no such connection call: \(String(action.prefix(100)))")
        }
        return found ? ok() : fail(404, "no connection \(String(id.prefix(100)))")
    }

    /// Close codes that may appear in a close frame (RFC 6455 7.4).
    static func isSendableCloseCode(_ code: Int) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }

    /// `{"ok":true}` plus whole-number members, in name order.
    private func ok(_ extra: [String: Int] = [:]) -> Outcome {
        Outcome(response: okResponse(extra))
    }

    private func okResponse(_ extra: [String: Int] = [:]) -> HTTPResponse {
        var members = extra.map { (JSONValue.string($0.key).description, String($0.value)) }
        members.append(("\"ok\"", "true"))
        members.sort { $0.0 < $1.0 }
        return .json(200, "{" + members.map { "\($0.0):\($0.1)" }.joined(separator: ",") + "}")
    }

    private func fail(_ status: Int, _ message: String) -> Outcome {
        Outcome(response: .json(status, "{\"error\":\(JSONValue.string(message).description)}"))
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
        "POST /sandbox/connections/{id}/send {text} | {opcode,base64}",
        "POST /sandbox/publish {channel,event,data,encrypted?}",
        "POST /sandbox/burst {channel,event,data,count,rate,encrypted?}",
        "POST /sandbox/encryption/rotate {master_key?}",
    ]
}
