// The module and the class are both named `BirdRealtime`, so `BirdRealtime.X` resolves inside the
// class. These aliases make qualified names work either way (`BirdRealtime.Channel`, …). The
// underscored module-level aliases exist only to name the module's types from inside the class.

@_documentation(visibility: private) public typealias _BirdRealtimeChannel = Channel
@_documentation(visibility: private) public typealias _BirdRealtimePrivateChannel = PrivateChannel
@_documentation(visibility: private) public typealias _BirdRealtimePresenceChannel = PresenceChannel
@_documentation(visibility: private) public typealias _BirdRealtimePrivateEncryptedChannel = PrivateEncryptedChannel
@_documentation(visibility: private) public typealias _BirdRealtimeDecryptionProblem = DecryptionProblem
@_documentation(visibility: private) public typealias _BirdRealtimeConnectionState = ConnectionState
@_documentation(visibility: private) public typealias _BirdRealtimeStateChange = StateChange
@_documentation(visibility: private) public typealias _BirdRealtimeStateChangeCause = StateChangeCause
@_documentation(visibility: private) public typealias _BirdRealtimeMember = Member
@_documentation(visibility: private) public typealias _BirdRealtimeMemberEvents = MemberEvents
@_documentation(visibility: private) public typealias _BirdRealtimeError = RealtimeError
@_documentation(visibility: private) public typealias _BirdRealtimeAuthError = RealtimeAuthError
@_documentation(visibility: private) public typealias _BirdRealtimeConfigurationError = ConfigurationError
@_documentation(visibility: private) public typealias _BirdRealtimeTriggerError = TriggerError
@_documentation(visibility: private) public typealias _BirdRealtimeJSONValue = JSONValue
@_documentation(visibility: private) public typealias _BirdRealtimeDialect = Dialect
@_documentation(visibility: private) public typealias _BirdRealtimeBindingToken = BindingToken
@_documentation(visibility: private) public typealias _BirdRealtimeChannelEvent = ChannelEvent
@_documentation(visibility: private) public typealias _BirdRealtimeRetrySchedule = RetrySchedule
@_documentation(visibility: private) public typealias _BirdRealtimeAuthResponse = AuthResponse
@_documentation(visibility: private) public typealias _BirdRealtimeLogLevel = LogLevel
@_documentation(visibility: private) public typealias _BirdRealtimeWireDirection = WireDirection
@_documentation(visibility: private) public typealias _BirdRealtimeEndpoint = RealtimeEndpoint

extension BirdRealtime {
    /// A public channel (`BirdRealtime.Channel`).
    public typealias Channel = _BirdRealtimeChannel
    /// A `private-` channel.
    public typealias PrivateChannel = _BirdRealtimePrivateChannel
    /// A `presence-` channel.
    public typealias PresenceChannel = _BirdRealtimePresenceChannel
    /// A `private-encrypted-` (end-to-end encrypted) channel.
    public typealias PrivateEncryptedChannel = _BirdRealtimePrivateEncryptedChannel
    /// Why an encrypted event was not delivered.
    public typealias DecryptionProblem = _BirdRealtimeDecryptionProblem
    /// The six connection states.
    public typealias ConnectionState = _BirdRealtimeConnectionState
    /// A state transition with its cause.
    public typealias StateChange = _BirdRealtimeStateChange
    /// Why a state changed.
    public typealias StateChangeCause = _BirdRealtimeStateChangeCause
    /// A signed-in member.
    public typealias Member = _BirdRealtimeMember
    /// Events addressed to the signed-in member.
    public typealias MemberEvents = _BirdRealtimeMemberEvents
    /// A connection-level error.
    public typealias RealtimeError = _BirdRealtimeError
    /// An authorization endpoint failure.
    public typealias RealtimeAuthError = _BirdRealtimeAuthError
    /// An unusable configuration.
    public typealias ConfigurationError = _BirdRealtimeConfigurationError
    /// A refused client event.
    public typealias TriggerError = _BirdRealtimeTriggerError
    /// A JSON payload.
    public typealias JSONValue = _BirdRealtimeJSONValue
    /// The wire's spelling.
    public typealias Dialect = _BirdRealtimeDialect
    /// A handler registration.
    public typealias BindingToken = _BirdRealtimeBindingToken
    /// An event delivered to a channel.
    public typealias ChannelEvent = _BirdRealtimeChannelEvent
    /// A scheduled reconnect.
    public typealias RetrySchedule = _BirdRealtimeRetrySchedule
    /// An authorizer's answer.
    public typealias AuthResponse = _BirdRealtimeAuthResponse
    /// A log severity.
    public typealias LogLevel = _BirdRealtimeLogLevel
    /// Which way a message travelled.
    public typealias WireDirection = _BirdRealtimeWireDirection
    /// Where a connection attempt goes, as an endpoint provider answers it.
    public typealias Endpoint = _BirdRealtimeEndpoint
}
