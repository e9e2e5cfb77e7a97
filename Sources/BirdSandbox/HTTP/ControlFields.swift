import BirdWire

/// A control API body field that is missing where required, of the wrong type or out of range.
struct ControlFieldError: Error, Equatable {
    /// The message for `{"error": …}`; it names the field and the accepted range.
    var message: String
}

/// Typed, range-checked access to a control API request body (a JSON object, or nothing).
///
/// A field that is absent takes its default; a field that is present must have the right type
/// and range — `null`, a string holding a number, a fraction where a whole number is wanted or
/// a value out of range is an error naming the field, never a guess. Reads JSON through its
/// accessors only.
struct ControlFields {
    /// The body: an object, or `.null` for an empty body.
    let body: JSONValue

    /// The fields of `bytes`: nil when the body is neither empty (whitespace) nor a JSON object.
    init?(bytes: [UInt8]) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            body = .null
            return
        }
        guard let value = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self)), value.objectValue != nil
        else { return nil }
        body = value
    }

    /// Whether the field is present (also when it is `null`).
    func has(_ key: String) -> Bool { body[key] != nil }

    /// A whole number in `range`; `fallback` when absent.
    func int(_ key: String, default fallback: Int, in range: ClosedRange<Int>) throws(ControlFieldError) -> Int {
        guard let value = body[key] else { return fallback }
        guard let number = Self.wholeNumber(value, in: range) else {
            throw ControlFieldError(
                message:
                    "\(key) must be a whole number in \(range.lowerBound)…\(range.upperBound), not \(Self.show(value))")
        }
        return number
    }

    /// A close code that may go in a close frame (RFC 6455 7.4: 1000–1003, 1007–1014, 3000–4999);
    /// `fallback` when absent.
    func closeCode(_ key: String = "code", default fallback: Int) throws(ControlFieldError) -> Int {
        guard let value = body[key] else { return fallback }
        guard let code = Self.wholeNumber(value, in: 1000...4999), ControlAPI.isSendableCloseCode(code) else {
            throw ControlFieldError(
                message: "\(key) must be a whole number that can close a WebSocket (1000–1003, 1007–1014 or "
                    + "3000–4999), not \(Self.show(value))")
        }
        return code
    }

    /// A number in `range` (fractions allowed); `fallback` when absent.
    func number(_ key: String, default fallback: Double, in range: ClosedRange<Double>, unit: String)
        throws(ControlFieldError) -> Double
    {
        guard let value = body[key] else { return fallback }
        guard let number = value.doubleValue, number.isFinite, range.contains(number) else {
            throw ControlFieldError(
                message: "\(key) must be a number of \(unit) in \(Self.amount(range.lowerBound))…"
                    + "\(Self.amount(range.upperBound)), not \(Self.show(value))")
        }
        return number
    }

    /// A string of at most `maxBytes` UTF-8 bytes; `fallback` when absent (nil fallback: required).
    func string(_ key: String, default fallback: String?, maxBytes: Int, nonEmpty: Bool = false)
        throws(ControlFieldError) -> String
    {
        guard let value = body[key] else {
            guard let fallback else { throw ControlFieldError(message: "\(key) is missing") }
            return fallback
        }
        guard let text = value.stringValue else {
            throw ControlFieldError(message: "\(key) must be a string, not \(Self.show(value))")
        }
        if nonEmpty, text.isEmpty { throw ControlFieldError(message: "\(key) must not be empty") }
        guard text.utf8.count <= maxBytes else {
            throw ControlFieldError(
                message: "\(key) must be at most \(maxBytes) bytes of UTF-8, not \(text.utf8.count)")
        }
        return text
    }

    /// An optional string (absent: nil; `null` is an error like any other wrong type).
    func optionalString(_ key: String, maxBytes: Int) throws(ControlFieldError) -> String? {
        guard has(key) else { return nil }
        return try string(key, default: nil, maxBytes: maxBytes)
    }

    /// `true` or `false`; `fallback` when absent.
    func bool(_ key: String, default fallback: Bool) throws(ControlFieldError) -> Bool {
        guard let value = body[key] else { return fallback }
        guard let flag = value.boolValue else {
            throw ControlFieldError(message: "\(key) must be true or false, not \(Self.show(value))")
        }
        return flag
    }

    // MARK: Helpers

    /// The value as an `Int` when it is a JSON number with no fraction inside `range`.
    static func wholeNumber(_ value: JSONValue, in range: ClosedRange<Int>) -> Int? {
        guard let number = value.doubleValue, number.isFinite, number == number.rounded(),
            number >= Double(range.lowerBound), number <= Double(range.upperBound)
        else { return nil }
        return Int(exactly: number)
    }

    /// A received value for an error message: its JSON text, cut to 40 characters.
    static func show(_ value: JSONValue) -> String {
        if value.isNull { return "null" }
        let text = value.description
        let kind: String
        if value.stringValue != nil {
            kind = "the string "
        } else if value.arrayValue != nil {
            kind = "an array "
        } else if value.objectValue != nil {
            kind = "an object "
        } else {
            kind = ""
        }
        return kind + (text.count > 40 ? String(text.prefix(40)) + "…" : text)
    }

    /// A range bound for an error message: whole numbers without a fraction.
    static func amount(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
