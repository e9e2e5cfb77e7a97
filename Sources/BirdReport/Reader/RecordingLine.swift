import BirdWire

/// One entry of a recording after the header: its type, its monotonic time and its other keys,
/// read through accessors (a key of the wrong type reads as absent).
public struct RecordingLine: Sendable, Equatable {
    /// The 1-based line number in the file.
    public var number: Int
    /// Milliseconds since the recording started (`mono_ms`), never less than the previous line's.
    public var monoMs: Double
    /// The entry's `type`.
    public var type: String
    /// The whole object, `ts`, `mono_ms` and `type` included.
    public var fields: JSONObject

    /// A line from its parts.
    public init(number: Int, monoMs: Double, type: String, fields: JSONObject) {
        self.number = number
        self.monoMs = monoMs
        self.type = type
        self.fields = fields
    }

    /// The string member `key`, when it is one.
    public func string(_ key: String) -> String? { fields[key]?.stringValue }

    /// The integral number member `key`, when it is one in `Int`'s range.
    public func int(_ key: String) -> Int? { fields[key]?.intValue }

    /// The number member `key` as a finite `Double`, when it is one.
    public func number(_ key: String) -> Double? {
        guard let value = fields[key]?.doubleValue, value.isFinite else { return nil }
        return value
    }

    /// The wall-clock `ts` the writer put on the line.
    public var timestamp: String? { string("ts") }
}
