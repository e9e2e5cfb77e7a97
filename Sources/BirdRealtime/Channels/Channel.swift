import Foundation

/// A public channel (no prefix). Keep the object: it survives reconnects with its handlers and is
/// re-subscribed after every `connected`.
///
/// `PrivateChannel`, `PrivateEncryptedChannel` and `PresenceChannel` are subclasses, returned by
/// `subscribe` by prefix.
public class Channel: @unchecked Sendable, CustomStringConvertible {
    struct State {
        var subscribed = false
        var members: [String: JSONValue] = [:]
        var myId: String?
        var continuity: ChannelContinuity?
    }

    /// The channel's name.
    public let name: String
    /// What the channel is, from its name's prefix.
    public let kind: ChannelKind
    /// Whether the channel is end-to-end encrypted (`private-encrypted-…`, a
    /// ``PrivateEncryptedChannel``): its events are decrypted before handlers see them.
    public let isEncrypted: Bool

    let registry = HandlerRegistry()
    let state = Locked(State())
    let core: ClientCore
    /// The position the app supplied when it subscribed (the first subscription resumes from it).
    let initialPosition: StreamPosition?

    init(name: String, core: ClientCore, resumingFrom position: StreamPosition? = nil) {
        self.initialPosition = position
        self.name = name
        self.kind = ChannelKind(channelName: name)
        self.isEncrypted = ChannelKind.isEncrypted(channelName: name)
        self.core = core
    }

    public var description: String { "\(kind) channel \(name)" }

    /// Whether the channel is subscribed on the current connection (and may send client events).
    public var subscribed: Bool { state.withLock { $0.subscribed } }

    /// Whether the latest subscription continued the channel's stream: recovered, how many
    /// events were missed, or unknown (always unknown on a resubscription in the Pusher dialect).
    /// Nil until the first subscription succeeds; kept while the connection is down.
    public var continuity: ChannelContinuity? { state.withLock { $0.continuity } }

    // MARK: - Handlers

    /// Calls `handler` for every event named `eventName` (app events, client events and the
    /// lifecycle events `bird:subscription_succeeded`, `bird:subscription_error`, …).
    /// The payload is parsed JSON, `.string` when it was not JSON, nil when absent.
    @discardableResult
    public func bind(_ eventName: String, _ handler: @escaping @Sendable (JSONValue?) -> Void) -> BindingToken {
        registry.add(event: eventName) { handler($0.data) }
    }

    /// Calls `handler` with the whole event (including the sender of a presence client event).
    @discardableResult
    public func bindEvent(_ eventName: String, _ handler: @escaping @Sendable (ChannelEvent) -> Void) -> BindingToken {
        registry.add(event: eventName, handler)
    }

    /// Calls `handler` with every whole event on this channel.
    @discardableResult
    public func bindAllEvents(_ handler: @escaping @Sendable (ChannelEvent) -> Void) -> BindingToken {
        registry.add(event: nil, handler)
    }

    /// Calls `handler` for every event on this channel, with its name.
    @discardableResult
    public func bindAll(_ handler: @escaping @Sendable (String, JSONValue?) -> Void) -> BindingToken {
        registry.add(event: nil) { handler($0.name, $0.data) }
    }

    /// Removes one handler.
    public func unbind(_ token: BindingToken) {
        registry.remove(token)
    }

    /// Removes every handler of this channel.
    public func unbindAll() {
        registry.removeAll()
    }

    /// The payloads of the events named `eventName`, as an async stream (ends when the consumer stops).
    public func events(named eventName: String) -> AsyncStream<JSONValue?> {
        registry.stream(event: eventName)
    }

    // MARK: - Client events

    /// Sends a client event to the channel's other subscribers.
    ///
    /// - Throws: ``TriggerError`` for a name without `client-`, a public channel, an encrypted
    ///   channel, or data over 10 KB.
    /// - Returns: `false` (and sends nothing) when the channel is not subscribed right now;
    ///   `true` when sent.
    @discardableResult
    public func trigger(_ event: String, data: JSONValue) throws -> Bool {
        guard event.hasPrefix(Limits.clientEventPrefix) else {
            throw TriggerError(
                kind: .notClientEvent, message: "client event names must start with \"client-\" (got \"\(event)\")")
        }
        guard event.utf8.count <= Limits.maxEventNameLength else {
            throw TriggerError(
                kind: .eventNameTooLong, message: "event name longer than \(Limits.maxEventNameLength) characters")
        }
        guard kind.allowsClientEvents else {
            throw TriggerError(
                kind: .publicChannel, message: "client events need a private or presence channel (\(name) is public)")
        }
        guard ChannelKind.allowsClientEvents(channelName: name) else {
            throw TriggerError(
                kind: .encryptedChannel,
                message: "client events cannot be sent on encrypted channels (\(name) is end-to-end encrypted)")
        }
        let text = data.description
        guard text.utf8.count <= Limits.maxPayloadBytes else {
            throw TriggerError(
                kind: .payloadTooLarge,
                message: "client event data is \(text.utf8.count) bytes; the limit is \(Limits.maxPayloadBytes)")
        }
        guard subscribed else { return false }
        return core.sendClientEvent(channel: self, event: event, dataText: text)
    }

    // MARK: - Driver side

    func setSubscribed(_ value: Bool) {
        state.withLock { $0.subscribed = value }
    }

    /// The connection is gone: not subscribed, roster empty.
    func reset() {
        state.withLock { s in
            s.subscribed = false
            s.members = [:]
            s.myId = nil
        }
    }
}

/// A `private-` channel: subscriptions are signed through the auth endpoint or authorizer;
/// client events may be sent once subscribed.
public class PrivateChannel: Channel, @unchecked Sendable {}

/// A `presence-` channel: signed like a private channel, and carries a roster of members.
public final class PresenceChannel: PrivateChannel, @unchecked Sendable {
    /// The members present, keyed by member id (a member is present once however many
    /// connections it has). Empty while not subscribed.
    public var members: [String: JSONValue] { state.withLock { $0.members } }

    /// This connection's member id on the channel (from the signed `member_data`).
    public var myId: String? { state.withLock { $0.myId } }

    /// How many members are present.
    public var count: Int { state.withLock { $0.members.count } }

    /// One member's info.
    public func member(id: String) -> JSONValue? { state.withLock { $0.members[id] } }
}
