import BirdRealtime
import Foundation

/// Everything one client reports, collected from its delivery queue and read from the test's task
/// under a lock: state changes, scheduled retries, errors, sign-in errors, channel events, member
/// events, the wire tap and (through ``logHandler``) log lines.
///
/// ```swift
/// let recorder = ClientRecorder()
/// options.logHandler = recorder.logHandler
/// let bird = BirdRealtime(options: options, environment: transport.environment(clock: clock))
/// recorder.attach(to: bird)
/// let mark = recorder.mark
/// // …
/// #expect(recorder.changes(since: mark).map(\.current) == [.connected])
/// ```
public final class ClientRecorder: @unchecked Sendable {
    private struct Lists {
        var changes: [StateChange] = []
        var retries: [RetrySchedule] = []
        var errors: [RealtimeError] = []
        var signinErrors: [any BirdRealtimeError] = []
        var events: [ChannelEvent] = []
        var memberEvents: [ChannelEvent] = []
        var wire: [(WireDirection, String)] = []
        var logs: [(LogLevel, String)] = []
    }

    private let lists = TestLock(Lists())

    /// An empty recorder.
    public init() {}

    /// Registers every observer of `bird` (the log handler is set through ``logHandler``). A
    /// client's first transition may be delivered before this runs: see ``changesAfterStart``.
    public func attach(to bird: BirdRealtime) {
        bird.onStateChange { change in self.lists.withLock { $0.changes.append(change) } }
        bird.onRetryScheduled { schedule in self.lists.withLock { $0.retries.append(schedule) } }
        bird.onError { error in self.lists.withLock { $0.errors.append(error) } }
        bird.onSigninError { error in self.lists.withLock { $0.signinErrors.append(error) } }
        bird.onChannelEvent { event in self.lists.withLock { $0.events.append(event) } }
        bird.onWireMessage { direction, text in self.lists.withLock { $0.wire.append((direction, text)) } }
        bird.member.bindAll { name, data in
            self.lists.withLock { $0.memberEvents.append(ChannelEvent(channel: "#member", name: name, data: data)) }
        }
    }

    /// For `Options.logHandler`: records every log line.
    public var logHandler: @Sendable (LogLevel, String) -> Void {
        { level, message in self.lists.withLock { $0.logs.append((level, message)) } }
    }

    /// Every state change, oldest first.
    public var changes: [StateChange] { lists.withLock { $0.changes } }
    /// The state after each change.
    public var states: [ConnectionState] { lists.withLock { $0.changes.map(\.current) } }
    /// Every scheduled retry.
    public var retries: [RetrySchedule] { lists.withLock { $0.retries } }
    /// Every `onError` report.
    public var errors: [RealtimeError] { lists.withLock { $0.errors } }
    /// Every `onSigninError` report.
    public var signinErrors: [any BirdRealtimeError] { lists.withLock { $0.signinErrors } }
    /// Every channel event.
    public var events: [ChannelEvent] { lists.withLock { $0.events } }
    /// Every member event (`bird.member`), as events on the channel `#member`.
    public var memberEvents: [ChannelEvent] { lists.withLock { $0.memberEvents } }
    /// Every message on the wire tap, with its direction.
    public var wire: [(WireDirection, String)] { lists.withLock { $0.wire } }
    /// Every log line (once ``logHandler`` is the client's log handler).
    public var logs: [(LogLevel, String)] { lists.withLock { $0.logs } }

    /// How long each list was at one point, to look only at what happened after it.
    public struct Mark: Sendable {
        var changes = 0, retries = 0, errors = 0, signinErrors = 0, events = 0, memberEvents = 0, wire = 0

        /// The point before anything was recorded.
        public init() {}
    }

    /// The point now.
    public var mark: Mark {
        lists.withLock { l in
            var mark = Mark()
            mark.changes = l.changes.count
            mark.retries = l.retries.count
            mark.errors = l.errors.count
            mark.signinErrors = l.signinErrors.count
            mark.events = l.events.count
            mark.memberEvents = l.memberEvents.count
            mark.wire = l.wire.count
            return mark
        }
    }

    /// The state changes after `mark`.
    public func changes(since mark: Mark) -> [StateChange] {
        lists.withLock { Array($0.changes.dropFirst(mark.changes)) }
    }
    /// The retries scheduled after `mark`.
    public func retries(since mark: Mark) -> [RetrySchedule] {
        lists.withLock { Array($0.retries.dropFirst(mark.retries)) }
    }
    /// The errors after `mark`.
    public func errors(since mark: Mark) -> [RealtimeError] {
        lists.withLock { Array($0.errors.dropFirst(mark.errors)) }
    }
    /// The sign-in errors after `mark`.
    public func signinErrors(since mark: Mark) -> [any BirdRealtimeError] {
        lists.withLock { Array($0.signinErrors.dropFirst(mark.signinErrors)) }
    }
    /// The channel events after `mark`.
    public func events(since mark: Mark) -> [ChannelEvent] {
        lists.withLock { Array($0.events.dropFirst(mark.events)) }
    }
    /// The member events after `mark`.
    public func memberEvents(since mark: Mark) -> [ChannelEvent] {
        lists.withLock { Array($0.memberEvents.dropFirst(mark.memberEvents)) }
    }
    /// The wire tap after `mark`.
    public func wire(since mark: Mark) -> [(WireDirection, String)] {
        lists.withLock { Array($0.wire.dropFirst(mark.wire)) }
    }

    /// The channel events named `name` (on `channel`, when given) after `mark`.
    public func events(_ name: String, on channel: String? = nil, since mark: Mark = Mark()) -> [ChannelEvent] {
        events(since: mark).filter { $0.name == name && (channel == nil || $0.channel == channel) }
    }

    /// The state changes after the automatic first one (`initialized → connecting`, cause
    /// `.start`): a delivery queue may run that one before observers are registered.
    public var changesAfterStart: [StateChange] { changes.filter { $0.cause != .start } }

    /// The connection ids of every `connected` transition so far.
    public var connectedIds: [String] {
        lists.withLock { $0.changes.filter { $0.current == .connected }.compactMap(\.connectionId) }
    }

    /// Every piece of text the client produced for people or tools: logs, wire tap, errors,
    /// sign-in errors, event payloads (subscription errors carry messages), state changes and
    /// retries. For checking that a secret appears nowhere.
    public var allText: [String] {
        lists.withLock { l in
            l.logs.map(\.1) + l.wire.map(\.1) + l.errors.map { "\($0.description) \($0.message) \($0.reason ?? "")" }
                + l.signinErrors.map { "\($0.description) \($0.message)" }
                + l.events.map { "\($0.name) \($0.data?.description ?? "")" }
                + l.changes.map(\.description) + l.retries.map { "\($0.cause)" }
        }
    }
}
