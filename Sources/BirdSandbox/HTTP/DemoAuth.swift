import BirdWire
import WebSocket

/// The demo auth endpoints: `POST /auth` signs any channel for the calling connection and
/// `POST /auth/member` signs a sign-in. They are for local demos and tests only — a real app's
/// backend decides who may join what; these sign everything for anyone who asks.
extension Edge {
    /// `POST /auth`: `{"connection_id","channel_name"}` (JSON) or `socket_id=…&channel_name=…`
    /// (form), either dialect; answers `{"auth", "member_data"|"channel_data"?}`, plus
    /// `shared_secret` (the channel key) for a `private-encrypted-` channel — refused with 403
    /// when the sandbox has no encryption master key. The presence identity is `?member=NAME`,
    /// else a guest id derived from the connection id.
    func handleChannelAuth(_ request: HTTPRequest) -> HTTPResponse {
        let fields = Edge.authFields(request)
        guard let channel = fields["channel_name"], !channel.isEmpty else {
            return authError(400, "missing channel_name")
        }
        if let failure = authFailure, failure.prefix.map({ channel.hasPrefix($0) }) ?? true {
            log("auth: failing \(channel) with \(failure.status), as asked")
            return authError(failure.status, "auth failure injected by the sandbox")
        }
        guard let connectionId = fields["connection_id"] ?? fields["socket_id"],
            Limits.isValidConnectionId(connectionId)
        else {
            return authError(400, "missing or invalid \(dialect.connectionIdKey)")
        }
        guard Limits.isValidChannelName(channel) else { return authError(400, "invalid channel_name") }
        var response: [String: JSONValue] = [:]
        if ChannelKind(channelName: channel) == .presence {
            let memberId = Edge.memberName(request, connectionId: connectionId)
            let identity = JSONValue.object([
                dialect.presenceIdKey: .string(memberId), dialect.presenceInfoKey: ["name": .string(memberId)],
            ]).description
            let string = Signature.presenceChannelString(
                connectionId: connectionId, channel: channel, memberData: identity)
            response["auth"] = .string(
                Signature.auth(appKey: configuration.appKey, secret: configuration.appSecret, string: string))
            response[dialect.presenceDataKey] = .string(identity)
            log("auth: signed \(channel) for \(connectionId) as \(memberId)")
        } else {
            var note = ""
            if ChannelKind.isEncrypted(channelName: channel) {
                guard let key = channelKey(for: channel) else {
                    log("auth: refused encrypted channel \(channel): no encryption master key")
                    return authError(
                        403,
                        "\(channel) is an encrypted channel and the sandbox has no encryption master key "
                            + "(start it with --encryption-master-key or BIRD_SANDBOX_ENCRYPTION_MASTER_KEY)")
                }
                response[EncryptedChannel.sharedSecretKey] = .string(key.revealBase64())
                note = " with its channel key"
            }
            let string = Signature.privateChannelString(connectionId: connectionId, channel: channel)
            response["auth"] = .string(
                Signature.auth(appKey: configuration.appKey, secret: configuration.appSecret, string: string))
            log("auth: signed \(channel) for \(connectionId)\(note)")
        }
        return corsJSON(200, JSONValue.object(JSONObject(response)).description)
    }

    /// `POST /auth/member`: `{"connection_id"}` (JSON) or `socket_id=…` (form); answers
    /// `{"auth","member_data"}` (bird) or `{"auth","user_data"}` (pusher). The member is
    /// `?member=NAME` (else a guest id), its info `?info=<JSON object>` (else `{"name": NAME}`).
    func handleMemberAuth(_ request: HTTPRequest) -> HTTPResponse {
        if let failure = authFailure, failure.prefix == nil {
            log("auth/member: failing with \(failure.status), as asked")
            return authError(failure.status, "auth failure injected by the sandbox")
        }
        let fields = Edge.authFields(request)
        guard let connectionId = fields["connection_id"] ?? fields["socket_id"],
            Limits.isValidConnectionId(connectionId)
        else {
            return authError(400, "missing or invalid \(dialect.connectionIdKey)")
        }
        let memberId = Edge.memberName(request, connectionId: connectionId)
        let infoKey = dialect == .bird ? "member_info" : "user_info"
        // `?info=<JSON object>` chooses the member info (the inspector's `signin ID INFO`).
        let info =
            request.queryValue("info").flatMap { try? JSONValue(parsing: $0) }.flatMap {
                $0.objectValue != nil ? $0 : nil
            } ?? ["name": .string(memberId)]
        let identity = JSONValue.object([dialect.signinIdKey: .string(memberId), infoKey: info]).description
        let string = Signature.signinString(connectionId: connectionId, memberData: identity, dialect: dialect)
        let response: JSONValue = [
            "auth": .string(
                Signature.auth(appKey: configuration.appKey, secret: configuration.appSecret, string: string)),
            dialect.signinDataKey: .string(identity),
        ]
        log("auth/member: signed sign-in for \(connectionId) as \(memberId)")
        return corsJSON(200, response.description)
    }

    /// The request's fields: a JSON object body, else a form body, plus the query as fallback.
    static func authFields(_ request: HTTPRequest) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in request.query where fields[name] == nil { fields[name] = value }
        let first = request.body.first {
            $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r")
        }
        if first == UInt8(ascii: "{") {
            if let object = (try? JSONValue(parsing: String(decoding: request.body, as: UTF8.self)))?.objectValue {
                for (name, value) in object {
                    if let text = value.stringValue ?? (value.doubleValue != nil ? value.description : nil) {
                        fields[name] = text
                    }
                }
            }
        } else {
            for (name, value) in FormBody.decode(request.body) { fields[name] = value }
        }
        return fields
    }

    /// `?member=NAME` when it is a usable id, else `guest-<digits of the connection id>`.
    static func memberName(_ request: HTTPRequest, connectionId: String) -> String {
        if let name = request.queryValue("member"), Limits.isValidChannelName(name) { return name }
        return "guest-" + connectionId.filter { $0 != "." }.suffix(8)
    }

    private func authError(_ status: Int, _ message: String) -> HTTPResponse {
        corsJSON(status, JSONValue.object(["error": .string(message)]).description)
    }

    func corsJSON(_ status: Int, _ body: String) -> HTTPResponse {
        var response = HTTPResponse.json(status, body)
        response.headers.add(name: "Access-Control-Allow-Origin", value: "*")
        return response
    }
}
