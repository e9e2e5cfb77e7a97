import BirdWire

/// One load-generator connection at the protocol level, as a value: waits for the handshake,
/// subscribes one public channel, then reports each app event it receives. Knows nothing of
/// sockets or frames; the driver feeds it whole text messages with their receive time.
public struct FanoutSubscriber: Sendable {
    /// Where the connection stands.
    public enum Phase: Sendable, Equatable {
        /// Waiting for `connection_established`.
        case handshaking
        /// Subscribe sent, waiting for `subscription_succeeded`.
        case subscribing
        /// Subscribed: app events are counted.
        case subscribed
        /// The edge refused something; nothing more happens.
        case failed(String)
    }

    /// What the driver must do after an input.
    public enum Action: Sendable, Equatable {
        /// Send this text message to the edge.
        case send(String)
        /// The subscription succeeded.
        case subscribed
        /// An app event named `event` arrived at `receivedNanos`, carrying `stamp` (nil: none).
        case delivery(stamp: FanoutStamp?, receivedNanos: UInt64)
        /// The connection cannot go on (a protocol error or refusal); the reason is the edge's.
        case failed(String)
    }

    /// The wire dialect.
    public let dialect: Dialect
    /// The channel to subscribe.
    public let channel: String
    /// The app event counted as a delivery.
    public let event: String
    /// Where the connection stands.
    public private(set) var phase: Phase = .handshaking

    private let established: [UInt8]
    private let succeeded: [UInt8]
    private let ping: [UInt8]
    private let eventName: [UInt8]
    private let errorPrefixes: [[UInt8]]

    /// A subscriber for `channel` counting `event`, speaking `dialect`.
    public init(dialect: Dialect, channel: String, event: String) {
        self.dialect = dialect
        self.channel = channel
        self.event = event
        established = Array(ProtocolEvent.connectionEstablished.wireName(dialect).utf8)
        succeeded = Array(ProtocolEvent.subscriptionSucceeded.wireName(dialect).utf8)
        ping = Array(ProtocolEvent.ping.wireName(dialect).utf8)
        eventName = Array(event.utf8)
        errorPrefixes = [
            Array(ProtocolEvent.error.wireName(dialect).utf8),
            Array(ProtocolEvent.subscriptionError.wireName(dialect).utf8),
        ]
    }

    /// Feeds one text message received at `receivedNanos` (monotonic).
    public mutating func input(message bytes: UnsafeRawBufferPointer, receivedNanos: UInt64) -> [Action] {
        if case .failed = phase { return [] }
        guard let name = Self.eventName(in: bytes) else { return [] }
        return handle(name: name, bytes: bytes, receivedNanos: receivedNanos)
    }

    /// ``input(message:receivedNanos:)`` for a `String` message.
    public mutating func input(text: String, receivedNanos: UInt64) -> [Action] {
        var copy = text
        return copy.withUTF8 { input(message: UnsafeRawBufferPointer($0), receivedNanos: receivedNanos) }
    }

    private mutating func handle(name: UnsafeRawBufferPointer, bytes: UnsafeRawBufferPointer, receivedNanos: UInt64)
        -> [Action]
    {
        if phase == .subscribed, name.elementsEqual(eventName) {
            return [.delivery(stamp: FanoutStamp.find(in: bytes), receivedNanos: receivedNanos)]
        }
        if name.elementsEqual(ping) {
            return [.send("{\"event\":\"\(dialect.eventPrefix)pong\",\"data\":{}}")]
        }
        if phase == .handshaking, name.elementsEqual(established) {
            phase = .subscribing
            let name = JSONValue.string(channel).description
            return [.send("{\"event\":\"\(dialect.eventPrefix)subscribe\",\"data\":{\"channel\":\(name)}}")]
        }
        if phase == .subscribing, name.elementsEqual(succeeded) {
            phase = .subscribed
            return [.subscribed]
        }
        if errorPrefixes.contains(where: { name.elementsEqual($0) }) {
            let reason = String(decoding: bytes.prefix(200), as: UTF8.self)
            phase = .failed(reason)
            return [.failed(reason)]
        }
        return []
    }

    /// The value of the message's top-level `"event"` member (the first `"event":"…"` in it; the
    /// encoders put it first), as a slice of `bytes`; nil when absent.
    static func eventName(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let key: StaticString = "\"event\":\""
        let keyCount = key.utf8CodeUnitCount
        let count = bytes.count
        guard count > keyCount else { return nil }
        var i = 0
        while i + keyCount <= count {
            var match = true
            for j in 0..<keyCount where bytes[i + j] != key.utf8Start[j] {
                match = false
                break
            }
            if match {
                let start = i + keyCount
                var end = start
                while end < count, bytes[end] != UInt8(ascii: "\"") {
                    if bytes[end] == UInt8(ascii: "\\") { return nil }  // escaped names are not ours
                    end += 1
                }
                guard end < count else { return nil }
                return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            }
            i += 1
        }
        return nil
    }
}
