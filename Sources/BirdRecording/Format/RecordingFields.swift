import BirdWire

/// Typed access to a recording line's members (the last of repeated keys wins; a key of the wrong
/// type reads as absent), and the exact text of a member's value in the line.
public struct RecordingFields: Sendable, Equatable {
    /// The line's object.
    public let object: JSONObject
    /// The line's text, for ``json(_:)``; nil when the fields were not read from text.
    public let text: String?

    /// Fields of `object`, read from `text` when given.
    public init(_ object: JSONObject, text: String? = nil) {
        self.object = object
        self.text = text
    }

    /// The member `key`'s value.
    public func value(_ key: String) -> JSONValue? { object[key] }

    /// The string member `key`.
    public func string(_ key: String) -> String? { object[key]?.stringValue }

    /// The number member `key` as a `Double` (finite; JSON cannot spell anything else).
    public func number(_ key: String) -> Double? {
        guard let value = object[key]?.doubleValue, value.isFinite else { return nil }
        return value
    }

    /// The integral number member `key` within ±9·10¹⁵, exactly (`1.5` and `1e300` are not
    /// integers here), so arithmetic on it cannot overflow.
    public func int(_ key: String) -> Int? {
        guard let i = object[key]?.intValue, Double(i.magnitude) <= Checked.intLimit else { return nil }
        return i
    }

    /// The boolean member `key`.
    public func bool(_ key: String) -> Bool? { object[key]?.boolValue }

    /// A value's JSON text exactly as it stands in the line (the last occurrence of a repeated
    /// key); its compact form when the fields have no text. Nil when absent or `null`.
    public func json(_ key: String) -> String? {
        guard let value = object[key], !value.isNull else { return nil }
        guard let text, let members = JSONValue.memberRanges(in: text),
            let range = members.last(where: { $0.key == key })?.value
        else { return value.description }
        return String(decoding: Array(text.utf8)[range], as: UTF8.self)
    }
}
