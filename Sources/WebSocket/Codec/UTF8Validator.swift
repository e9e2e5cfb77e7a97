/// An incremental UTF-8 validator (RFC 3629: no overlongs, no surrogates, nothing above
/// U+10FFFF), so a text message split across fragments is checked as it arrives.
struct UTF8Validator: Sendable {
    private var remaining = 0  // continuation bytes still expected
    private var lower: UInt8 = 0x80  // allowed range of the next continuation byte
    private var upper: UInt8 = 0xBF

    /// Whether the bytes so far end on a character boundary.
    var isComplete: Bool { remaining == 0 }

    /// Feeds more bytes; returns false as soon as they cannot be valid UTF-8.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var i = 0
        while i < count {
            if remaining == 0 {
                // ASCII fast path, eight bytes at a time.
                while i + 8 <= count,
                    base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    i += 8
                }
                guard i < count else { break }
                let b = base.load(fromByteOffset: i, as: UInt8.self)
                i += 1
                switch b {
                case 0x00...0x7F: continue
                case 0xC2...0xDF: remaining = 1; lower = 0x80; upper = 0xBF
                case 0xE0: remaining = 2; lower = 0xA0; upper = 0xBF
                case 0xE1...0xEC, 0xEE...0xEF: remaining = 2; lower = 0x80; upper = 0xBF
                case 0xED: remaining = 2; lower = 0x80; upper = 0x9F
                case 0xF0: remaining = 3; lower = 0x90; upper = 0xBF
                case 0xF1...0xF3: remaining = 3; lower = 0x80; upper = 0xBF
                case 0xF4: remaining = 3; lower = 0x80; upper = 0x8F
                default: return false
                }
            } else {
                let b = base.load(fromByteOffset: i, as: UInt8.self)
                i += 1
                guard b >= lower && b <= upper else { return false }
                remaining -= 1
                lower = 0x80
                upper = 0xBF
            }
        }
        return true
    }

    /// Feeds an array of bytes.
    mutating func feed(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { feed($0) }
    }
}

/// Text from UTF-8 bytes. Short texts are validated here and made with `String(decoding:)`:
/// the generic `String(validating:as:)` costs a runtime metadata lookup per call, which
/// dominates for small messages. Long texts use it (one validating pass instead of two).
enum UTF8Text {
    /// The string, or nil when the bytes are not valid UTF-8.
    static func make(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.count >= 1024 { return String(validating: bytes, as: UTF8.self) }
        var validator = UTF8Validator()
        guard validator.feed(UnsafeRawBufferPointer(bytes)), validator.isComplete else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The string, or nil when the bytes are not valid UTF-8.
    static func make(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { make($0) }
    }
}
