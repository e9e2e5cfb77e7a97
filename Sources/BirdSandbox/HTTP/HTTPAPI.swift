import BirdWire
import WebSocket

/// Largest HTTP API request body accepted (a batch of 10 events of 10 KB, with room to spare).
let maxAPIBodyBytes = 256 * 1024

extension Edge {
    /// docs/PROTOCOL.md § HTTP API of an edge: `/apps/{app_id}/…`, plus `/users/{id}/terminate_connections`
    /// as the official Python SDK sends it. Pusher's names in both dialects.
    func handleAPI(_ request: HTTPRequest) -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var route = parts
        if parts.first == "apps" {
            guard parts.count >= 3 else { return apiError(404, "not found") }
            guard parts[1] == configuration.appId else {
                return apiError(404, "unknown app \(String(parts[1].prefix(100)))")
            }
            route = Array(parts.dropFirst(2))
        }
        if request.body.count > maxAPIBodyBytes { return apiError(413, "request body too large") }
        if let problem = apiAuthProblem(request) { return apiError(401, problem) }

        switch (request.method, route.count) {
        case ("POST", 1) where route[0] == "events":
            return triggerEvents(request)
        case ("POST", 1) where route[0] == "batch_events":
            return triggerBatch(request)
        case ("GET", 1) where route[0] == "channels":
            return channelsInfo(request)
        case ("GET", 2) where route[0] == "channels":
            return channelInfo(request, name: route[1])
        case ("GET", 3) where route[0] == "channels" && route[2] == "users":
            return usersInfo(name: route[1])
        case ("POST", 3) where route[0] == "users" && route[2] == "terminate_connections":
            let count = terminate(memberId: route[1])
            log("api: terminate_connections \(route[1]) (\(count) closed)")
            return .json(200, "{}")
        default:
            return apiError(404, "no such API call: \(request.method) \(String(request.path.prefix(200)))")
        }
    }

    func apiError(_ status: Int, _ message: String) -> HTTPResponse {
        .json(status, JSONValue.object(["error": .string(message)]).description)
    }

    // MARK: Authentication

    /// Why the request's signature is not acceptable, or nil when it is (docs/PROTOCOL.md § Signatures).
    func apiAuthProblem(_ request: HTTPRequest) -> String? {
        guard let key = request.queryValue("auth_key") else { return "missing auth_key" }
        guard key == configuration.appKey else { return "unknown auth_key" }
        if let version = request.queryValue("auth_version"), version != "1.0" { return "unsupported auth_version" }
        guard let timestampText = request.queryValue("auth_timestamp"), let timestamp = Double(timestampText) else {
            return "missing auth_timestamp"
        }
        guard abs(clock() - timestamp) <= 600 else { return "auth_timestamp is more than 600 s from the server's time" }
        let md5 = request.queryValue("body_md5")
        if !request.body.isEmpty || md5 != nil {
            guard let md5 else { return "missing body_md5" }
            guard Signature.constantTimeEquals(md5.lowercased(), Signature.md5Hex(request.body)) else {
                return "body_md5 does not match the body"
            }
        }
        guard let signature = request.queryValue("auth_signature") else { return "missing auth_signature" }
        let string = Signature.httpAPIString(method: request.method, path: request.path, query: request.query)
        let expected = Signature.hmacSHA256Hex(key: configuration.appSecret, message: string)
        guard Signature.constantTimeEquals(signature.lowercased(), expected) else { return "invalid signature" }
        return nil
    }

    // MARK: Events

    private func bodyObject(_ request: HTTPRequest) -> [String: JSONValue]? {
        (try? JSONValue(parsing: String(decoding: request.body, as: UTF8.self)))?.dictionaryValue
    }

    /// One event to deliver, validated.
    private struct APIEvent {
        var channels: [String]
        var name: String
        var data: WirePayload
        var socketId: String?
    }

    /// Validates one event object; returns the event or an error response.
    private func apiEvent(_ object: [String: JSONValue], allowManyChannels: Bool) -> Result<APIEvent, APIFailure> {
        guard let name = object["name"]?.stringValue, !name.isEmpty else {
            return .failure(.init(400, "missing event name"))
        }
        guard name.utf8.count <= Limits.maxEventNameLength else {
            return .failure(.init(400, "event name longer than \(Limits.maxEventNameLength) characters"))
        }
        var names: [String] = []
        if let channel = object["channel"]?.stringValue { names.append(channel) }
        if allowManyChannels, let list = object["channels"]?.arrayValue {
            for item in list {
                guard let channel = item.stringValue else { return .failure(.init(400, "channels must be strings")) }
                names.append(channel)
            }
        }
        guard !names.isEmpty else { return .failure(.init(400, "missing channel or channels")) }
        guard names.count <= Limits.maxChannelsPerPublish else {
            return .failure(.init(400, "more than \(Limits.maxChannelsPerPublish) channels"))
        }
        for channel in names where !isPublishableChannel(channel) {
            return .failure(.init(400, "invalid channel name: \(String(channel.prefix(200)))"))
        }
        // One sealed payload cannot serve several channels: each has its own key.
        if names.count > 1, names.contains(where: { ChannelKind.isEncrypted(channelName: $0) }) {
            return .failure(.init(400, Edge.multiChannelEncryptedError))
        }
        let data: WirePayload
        switch object["data"] {
        case .string(let s)?: data = .string(s)
        case nil, .null?: data = .string("")
        case let other?: data = .string(other.description)
        }
        guard data.text.utf8.count <= Limits.maxPayloadBytes else {
            return .failure(.init(413, "event data larger than \(Limits.maxPayloadBytes) bytes"))
        }
        var socketId: String?
        if let value = object["socket_id"], value != .null {
            guard let text = value.stringValue, Limits.isValidConnectionId(text) else {
                return .failure(.init(400, "invalid socket_id"))
            }
            socketId = text
        }
        return .success(APIEvent(channels: names, name: name, data: data, socketId: socketId))
    }

    private func deliver(_ event: APIEvent) {
        for channel in event.channels {
            let target = deliveryChannel(channel)
            let reached = publish(channel: target, event: event.name, data: event.data, excluding: event.socketId)
            log("api: \(event.name) on \(target) → \(reached) connection(s)")
        }
    }

    private func triggerEvents(_ request: HTTPRequest) -> HTTPResponse {
        guard let object = bodyObject(request) else { return apiError(400, "body must be a JSON object") }
        switch apiEvent(object, allowManyChannels: true) {
        case .failure(let failure): return apiError(failure.status, failure.message)
        case .success(let event):
            deliver(event)
            return .json(200, "{}")
        }
    }

    private func triggerBatch(_ request: HTTPRequest) -> HTTPResponse {
        guard let batch = bodyObject(request)?["batch"]?.arrayValue else {
            return apiError(400, "body must be {\"batch\":[…]}")
        }
        guard batch.count <= Limits.maxBatchEvents else {
            return apiError(400, "more than \(Limits.maxBatchEvents) events in a batch")
        }
        var events: [APIEvent] = []
        for item in batch {
            guard let object = item.dictionaryValue else { return apiError(400, "batch items must be objects") }
            switch apiEvent(object, allowManyChannels: false) {
            case .failure(let failure): return apiError(failure.status, failure.message)
            case .success(let event): events.append(event)
            }
        }
        events.forEach(deliver)
        return .json(200, "{}")
    }

    // MARK: Channels

    private func infoAttributes(_ request: HTTPRequest) -> Set<String> {
        Set((request.queryValue("info") ?? "").split(separator: ",").map { $0.trimmingSpaces })
    }

    private func channelsInfo(_ request: HTTPRequest) -> HTTPResponse {
        let prefix = request.queryValue("filter_by_prefix") ?? ""
        let attributes = infoAttributes(request)
        if attributes.contains("user_count") && !prefix.hasPrefix("presence-") {
            return apiError(400, "info=user_count needs filter_by_prefix=presence-")
        }
        var result: [String: JSONValue] = [:]
        for (name, channel) in channels where channel.isOccupied && channel.kind != .member && name.hasPrefix(prefix) {
            var info: [String: JSONValue] = [:]
            if attributes.contains("user_count"), channel.kind == .presence {
                info["user_count"] = .number(JSONNumber(channel.roster.count))
            }
            if attributes.contains("subscription_count") {
                info["subscription_count"] = .number(JSONNumber(channel.subscriptionCount))
            }
            result[name] = .object(JSONObject(info))
        }
        return .json(200, JSONValue.object(["channels": .object(JSONObject(result))]).description)
    }

    private func channelInfo(_ request: HTTPRequest, name: String) -> HTTPResponse {
        guard Limits.isValidChannelName(name) else { return apiError(400, "invalid channel name") }
        let attributes = infoAttributes(request)
        let kind = ChannelKind(channelName: name)
        if attributes.contains("user_count") && kind != .presence {
            return apiError(400, "user_count is only available for presence channels")
        }
        let channel = channels[name]
        var info: [String: JSONValue] = ["occupied": .bool(channel?.isOccupied ?? false)]
        if attributes.contains("subscription_count") {
            info["subscription_count"] = .number(JSONNumber(channel?.subscriptionCount ?? 0))
        }
        if attributes.contains("user_count") {
            info["user_count"] = .number(JSONNumber(channel?.roster.count ?? 0))
        }
        return .json(200, JSONValue.object(JSONObject(info)).description)
    }

    private func usersInfo(name: String) -> HTTPResponse {
        guard Limits.isValidChannelName(name) else { return apiError(400, "invalid channel name") }
        guard ChannelKind(channelName: name) == .presence else {
            return apiError(400, "users are only listed for presence channels")
        }
        let ids = channels[name]?.roster.ids ?? []
        let users: [JSONValue] = ids.map { ["id": .string($0)] }
        return .json(200, JSONValue.object(["users": .array(users)]).description)
    }
}

/// An HTTP failure: status and message.
struct APIFailure: Error {
    var status: Int
    var message: String
    init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }
}

extension Substring {
    var trimmingSpaces: String {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
