import BirdWire
import Foundation

/// One line of a recording after the header, read: its number, text, `type` and `mono_ms`, and
/// its members.
public struct RecordingLine: Sendable, Equatable {
    /// The 1-based line number in the file.
    public var number: Int
    /// The line as in the file.
    public var text: String
    /// Its `type`.
    public var type: String
    /// Its `mono_ms` (0…``RecordingFormat/maxMonoMs``), never less than the previous line's: a
    /// smaller one (a clock that went backwards) is held at the previous value.
    public var monoMs: Double
    /// Its members.
    public var fields: RecordingFields

    /// A line from its parts.
    public init(number: Int, text: String, type: String, monoMs: Double, fields: RecordingFields) {
        self.number = number
        self.text = text
        self.type = type
        self.monoMs = monoMs
        self.fields = fields
    }

    /// The string member `key`.
    public func string(_ key: String) -> String? { fields.string(key) }

    /// The integral number member `key` (within ±9·10¹⁵).
    public func int(_ key: String) -> Int? { fields.int(key) }

    /// The number member `key` as a finite `Double`.
    public func number(_ key: String) -> Double? { fields.number(key) }

    /// The wall-clock `ts` the writer put on the line, as written.
    public var timestamp: String? { fields.string("ts") }

    /// The `ts` as a date, when readable.
    public var time: Date? { timestamp.flatMap(RecordingTime.parse) }

    /// Whether the line is one of the E lines (``RecordingFormat/eventLineTypes``).
    public var isEventLine: Bool { RecordingFormat.eventLineTypes.contains(type) }
}
