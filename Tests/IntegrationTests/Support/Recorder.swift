import BirdRealtime
import Foundation

/// Everything one client reports, collected from its (private, serial) delivery queue and read
/// from the test's task under a lock.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var _changes: [StateChange] = []
    private var _retries: [RetrySchedule] = []
    private var _errors: [RealtimeError] = []
    private var _signinErrors: [any BirdRealtimeError] = []
    private var _events: [ChannelEvent] = []
    private var _memberEvents: [ChannelEvent] = []
    private var _wire: [(WireDirection, String)] = []
    private var _logs: [(LogLevel, String)] = []

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Registers every observer of `bird` (the log handler is set through ``logHandler``).
    func attach(to bird: BirdRealtime) {
        bird.onStateChange { change in self.locked { self._changes.append(change) } }
        bird.onRetryScheduled { schedule in self.locked { self._retries.append(schedule) } }
        bird.onError { error in self.locked { self._errors.append(error) } }
        bird.onSigninError { error in self.locked { self._signinErrors.append(error) } }
        bird.onChannelEvent { event in self.locked { self._events.append(event) } }
        bird.onWireMessage { direction, text in self.locked { self._wire.append((direction, text)) } }
        bird.member.bindAll { name, data in
            self.locked { self._memberEvents.append(ChannelEvent(channel: "#member", name: name, data: data)) }
        }
    }

    /// For `Options.logHandler`.
    var logHandler: @Sendable (LogLevel, String) -> Void {
        { level, message in self.locked { self._logs.append((level, message)) } }
    }

    var changes: [StateChange] { locked { _changes } }
    var states: [ConnectionState] { locked { _changes.map(\.current) } }
    var retries: [RetrySchedule] { locked { _retries } }
    var errors: [RealtimeError] { locked { _errors } }
    var signinErrors: [any BirdRealtimeError] { locked { _signinErrors } }
    var events: [ChannelEvent] { locked { _events } }
    var memberEvents: [ChannelEvent] { locked { _memberEvents } }
    var wire: [(WireDirection, String)] { locked { _wire } }
    var logs: [(LogLevel, String)] { locked { _logs } }

    /// Counts of each list, to look only at what happened after a point.
    struct Mark {
        var changes = 0, retries = 0, errors = 0, signinErrors = 0, events = 0, memberEvents = 0, wire = 0
    }

    var mark: Mark {
        locked {
            Mark(changes: _changes.count, retries: _retries.count, errors: _errors.count,
                 signinErrors: _signinErrors.count, events: _events.count, memberEvents: _memberEvents.count,
                 wire: _wire.count)
        }
    }

    func changes(since mark: Mark) -> [StateChange] { locked { Array(_changes.dropFirst(mark.changes)) } }
    func retries(since mark: Mark) -> [RetrySchedule] { locked { Array(_retries.dropFirst(mark.retries)) } }
    func errors(since mark: Mark) -> [RealtimeError] { locked { Array(_errors.dropFirst(mark.errors)) } }
    func signinErrors(since mark: Mark) -> [any BirdRealtimeError] {
        locked { Array(_signinErrors.dropFirst(mark.signinErrors)) }
    }
    func events(since mark: Mark) -> [ChannelEvent] { locked { Array(_events.dropFirst(mark.events)) } }
    func memberEvents(since mark: Mark) -> [ChannelEvent] {
        locked { Array(_memberEvents.dropFirst(mark.memberEvents)) }
    }
    func wire(since mark: Mark) -> [(WireDirection, String)] { locked { Array(_wire.dropFirst(mark.wire)) } }

    func events(_ name: String, on channel: String? = nil, since mark: Mark = Mark()) -> [ChannelEvent] {
        events(since: mark).filter { $0.name == name && (channel == nil || $0.channel == channel) }
    }

    /// The state changes after the automatic first one (`initialized → connecting`, cause
    /// `.start`): a private delivery queue may run that one before observers are registered.
    var changesAfterStart: [StateChange] { changes.filter { $0.cause != .start } }

    /// The connection ids of every `connected` transition so far.
    var connectedIds: [String] {
        locked { _changes.filter { $0.current == .connected }.compactMap(\.connectionId) }
    }

    /// Every piece of text the client produced for people or tools: logs, wire tap, errors,
    /// sign-in errors, event payloads (subscription errors carry messages).
    var allText: [String] {
        locked {
            _logs.map(\.1) + _wire.map(\.1) + _errors.map { "\($0.description) \($0.message) \($0.reason ?? "")" }
                + _signinErrors.map { "\($0.description) \($0.message)" }
                + _events.map { "\($0.name) \($0.data?.description ?? "")" }
                + _changes.map(\.description) + _retries.map { "\($0.cause)" }
        }
    }
}
