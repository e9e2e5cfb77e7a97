/// Typed handlers: a payload decoded as the type a handler asked for, or a
/// ``RealtimeError/Kind/payloadDecoding`` error for `onError` — never dropped silently.
enum PayloadDecoding {
    /// Decodes `event`'s payload (a missing payload is `null`) through the lossless model.
    static func decode<T: Decodable>(_ type: T.Type, from event: ChannelEvent, decoder: JSONValueDecoder)
        -> Result<T, RealtimeError>
    {
        let payload = event.payload
        do {
            return .success(try decoder.decode(T.self, from: payload?.value ?? .null))
        } catch {
            var detail = describe(error)
            if let problem = payload?.problem { detail += " (the payload is \(problem))" }
            return .failure(
                RealtimeError(
                    kind: .payloadDecoding,
                    message: "event \(event.name) on \(event.channel) did not decode as \(T.self): \(detail)",
                    channel: event.channel, event: event.name, detail: detail))
        }
    }

    /// A `DecodingError` in one line: what, where (the coding path) and why.
    static func describe(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        switch decodingError {
        case .typeMismatch(let type, let context):
            return "type mismatch for \(type) at \(path(context)): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "no value for \(type) at \(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "key \"\(key.stringValue)\" not found at \(path(context))"
        case .dataCorrupted(let context):
            return "data corrupted at \(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(decodingError)"
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        guard !context.codingPath.isEmpty else { return "the top level" }
        var text = ""
        for key in context.codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }
}

extension HandlerRegistry {
    /// Binds a handler that receives `event`'s payloads decoded as `T`; failures go to `report`.
    func addDecoding<T: Decodable & Sendable>(
        event: String, as type: T.Type, decoder: JSONValueDecoder,
        report: @escaping @Sendable (RealtimeError) -> Void,
        _ handler: @escaping @Sendable (T, ChannelEvent) -> Void
    ) -> BindingToken {
        add(event: event) { channelEvent in
            switch PayloadDecoding.decode(type, from: channelEvent, decoder: decoder) {
            case .success(let value): handler(value, channelEvent)
            case .failure(let error): report(error)
            }
        }
    }
}
