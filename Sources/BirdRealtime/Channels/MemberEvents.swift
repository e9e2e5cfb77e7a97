/// Events addressed to the signed-in member (`bird.member`): delivered on the member's reserved
/// channel, which the client subscribes after every successful sign-in.
public final class MemberEvents: @unchecked Sendable {
    let registry = HandlerRegistry()
    /// Where typed handlers report payloads that do not decode (the client's `onError`).
    let reporter = Locked<(@Sendable (RealtimeError) -> Void)?>(nil)

    init() {}

    /// Calls `handler` for every member event named `eventName`.
    @discardableResult
    public func bind(_ eventName: String, _ handler: @escaping @Sendable (JSONValue?) -> Void) -> BindingToken {
        registry.add(event: eventName) { handler($0.data) }
    }

    /// Calls `handler` for every member event, with its name.
    @discardableResult
    public func bindAll(_ handler: @escaping @Sendable (String, JSONValue?) -> Void) -> BindingToken {
        registry.add(event: nil) { handler($0.name, $0.data) }
    }

    /// Calls `handler` for every member event named `eventName` with its payload decoded as `T`;
    /// a payload that does not decode reaches `bird.onError` (kind `.payloadDecoding`).
    @discardableResult
    public func bind<T: Decodable & Sendable>(
        _ eventName: String, as type: T.Type, decoder: JSONValueDecoder = JSONValueDecoder(),
        _ handler: @escaping @Sendable (T) -> Void
    ) -> BindingToken {
        let reporter = self.reporter
        return registry.addDecoding(
            event: eventName, as: type, decoder: decoder,
            report: { error in reporter.snapshot?(error) }
        ) { value, _ in handler(value) }
    }

    /// Removes one handler.
    public func unbind(_ token: BindingToken) {
        registry.remove(token)
    }

    /// The payloads of member events named `eventName`, as an async stream.
    public func events(named eventName: String) -> AsyncStream<JSONValue?> {
        registry.stream(event: eventName)
    }
}
