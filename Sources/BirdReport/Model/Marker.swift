/// A moment worth marking on the timeline that is not a state change: a network change, a
/// scenario step, entries the recorder dropped. Rendered by line type, so new types of these
/// lines show without a change here.
public struct Marker: Sendable, Equatable {
    /// What kind of moment.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A `network` line: the network path changed.
        case network
        /// A `scenario` line: a step of a fault scenario.
        case scenario
        /// A `dropped` line: the recorder lost entries.
        case dropped
    }

    /// When (ms).
    public var atMs: Double
    /// The wall-clock `ts` of the line.
    public var timestamp: String?
    /// The kind.
    public var kind: Kind
    /// One line of text: the line's scalar fields, `key: value`.
    public var label: String

    /// A marker.
    public init(atMs: Double, timestamp: String? = nil, kind: Kind, label: String) {
        self.atMs = atMs
        self.timestamp = timestamp
        self.kind = kind
        self.label = label
    }
}
