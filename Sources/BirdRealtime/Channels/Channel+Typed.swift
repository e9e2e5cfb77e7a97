/// Typed events: payloads decoded into app types and app types sent as client events, through
/// the lossless JSON model (an `Int64` id arrives exact).
extension Channel {
    /// Calls `handler` for every event named `eventName` with its payload decoded as `T`.
    ///
    /// ```swift
    /// struct Order: Decodable { var id: Int64; var status: String }
    /// orders.bind("order-updated", as: Order.self) { order in print(order.id, order.status) }
    /// ```
    ///
    /// A payload that does not decode reaches `bird.onError` as a ``RealtimeError`` of kind
    /// ``RealtimeError/Kind/payloadDecoding`` naming the channel, the event and what did not fit.
    @discardableResult
    public func bind<T: Decodable & Sendable>(
        _ eventName: String, as type: T.Type, decoder: JSONValueDecoder = JSONValueDecoder(),
        _ handler: @escaping @Sendable (T) -> Void
    ) -> BindingToken {
        registry.addDecoding(event: eventName, as: type, decoder: decoder, report: reportDecodingError) { value, _ in
            handler(value)
        }
    }

    /// Like ``bind(_:as:decoder:_:)``, with the whole event too (its name, exact payload text and
    /// the sender of a presence client event).
    @discardableResult
    public func bindEvent<T: Decodable & Sendable>(
        _ eventName: String, as type: T.Type, decoder: JSONValueDecoder = JSONValueDecoder(),
        _ handler: @escaping @Sendable (T, ChannelEvent) -> Void
    ) -> BindingToken {
        registry.addDecoding(event: eventName, as: type, decoder: decoder, report: reportDecodingError, handler)
    }

    /// The payloads of the events named `eventName` decoded as `T`, as an async stream (ends when
    /// the consumer stops). Payloads that do not decode go to `bird.onError` instead.
    public func events<T: Decodable & Sendable>(
        named eventName: String, as type: T.Type, decoder: JSONValueDecoder = JSONValueDecoder()
    ) -> AsyncStream<T> {
        let (stream, continuation) = AsyncStream<T>.makeStream(bufferingPolicy: .unbounded)
        let token = registry.addDecoding(event: eventName, as: type, decoder: decoder, report: reportDecodingError) {
            value, _ in continuation.yield(value)
        }
        let registry = self.registry
        continuation.onTermination = { _ in registry.remove(token) }
        return stream
    }

    /// Sends a client event whose data is `data` encoded as JSON (``JSONValueEncoder``).
    /// A `JSONValue` (or a literal such as `["on": true]`) takes ``trigger(_:data:)`` instead.
    ///
    /// - Throws: ``TriggerError`` as ``trigger(_:data:)`` does, or of kind `.notEncodable`
    ///   when `data` does not encode.
    /// - Returns: `false` (and sends nothing) when the channel is not subscribed right now.
    @_disfavoredOverload
    @discardableResult
    public func trigger(
        _ event: String, data: some Encodable, encoder: JSONValueEncoder = JSONValueEncoder()
    ) throws -> Bool {
        let value: JSONValue
        do {
            value = try encoder.encode(data)
        } catch {
            throw TriggerError(kind: .notEncodable, message: "client event data did not encode: \(error)")
        }
        return try trigger(event, data: value)
    }

    private var reportDecodingError: @Sendable (RealtimeError) -> Void {
        { [weak core = self.core] error in core?.reportErrorFromAnyThread(error) }
    }
}
