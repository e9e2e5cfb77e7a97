/// A strict RFC 8259 parser over UTF-8 bytes into the lossless model. Recursion is bounded
/// (``maxDepth``) so hostile input cannot exhaust the stack; every failure is a typed
/// ``JSONParseError``, never a trap. Numbers are checked and kept as they are written (integers
/// accumulated while scanning; no string-to-double conversion).
struct JSONParser {
    static let maxDepth = JSONValue.maxNestingDepth

    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int = 0
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses exactly one value surrounded by optional whitespace.
    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected text after the value") }
        return value
    }

    /// Parses one value at the current position (no surrounding whitespace skipped after it).
    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let (number, end) = try JSONNumber.scan(bytes, from: index)
            index = end
            return .number(number)
        default: throw fail("unexpected character")
        }
    }

    // MARK: - Containers

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return .object(JSONObject()) }
        // Room for a typical payload's few members up front: one allocation, no regrowth.
        var object = JSONObject(capacity: 4)
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let key = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            // A repeated key: the last value wins, at the first occurrence's position.
            object.updateValue(try parseValue(), forKey: key)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(object)
            default: throw fail("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; return .array(array) }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(array)
            default: throw fail("expected ',' or ']'")
            }
        }
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        guard depth <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth)", kind: .tooDeep) }
    }

    // MARK: - Scalars

    /// Parses a string starting at the opening quote; leaves the index after the closing quote.
    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes. One pass finds the end and whether every byte is ASCII; plain
        // ASCII runs are skipped eight bytes at a time.
        var high: UInt8 = 0
        index = Self.plainRunEnd(bytes, from: index)
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if high < 0x80 { return Self.asciiString(slice) }
                return try Self.validatedString(slice, at: start)
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw fail("control character in a string") }
            high |= b
            index += 1
        }
        guard index < bytes.count else { throw fail("unterminated string") }
        return try parseEscapedString(start: start, asciiSoFar: high < 0x80)
    }

    /// The rest of a string that has escapes, from the first backslash (`index`); `start` is the
    /// string's first byte.
    private mutating func parseEscapedString(start: Int, asciiSoFar: Bool) throws(JSONParseError) -> String {
        guard asciiSoFar else { return try parseEscapedStringSlowly(start: start) }
        // ASCII text with one-character escapes (the double-encoded `data` of most messages):
        // unescape into a scratch buffer in one pass, then make the string from it. Anything
        // else (non-ASCII, `\\u`, malformed input) goes the careful way from the beginning.
        let bytes = self.bytes
        let from = index
        let result: (String, Int)? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count - start) {
            out -> (String, Int)? in
            var n = from - start
            if n > 0 { _ = out.initialize(from: UnsafeBufferPointer(rebasing: bytes[start..<from])) }
            var i = from
            while i < bytes.count {
                let runEnd = Self.plainRunEnd(bytes, from: i)
                if runEnd > i {
                    UnsafeMutableRawPointer(out.baseAddress! + n).copyMemory(
                        from: bytes.baseAddress! + i, byteCount: runEnd - i)
                    n += runEnd - i
                    i = runEnd
                    if i == bytes.count { break }
                }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    return (String(decoding: UnsafeBufferPointer(rebasing: out[0..<n]), as: UTF8.self), i + 1)
                }
                if b == UInt8(ascii: "\\") {
                    guard i + 1 < bytes.count else { return nil }
                    guard let c = JSONParser.unescaped(bytes[i + 1]) else { return nil }
                    out.initializeElement(at: n, to: c)
                    n += 1
                    i += 2
                    continue
                }
                guard b >= 0x20 && b < 0x80 else { return nil }
                out.initializeElement(at: n, to: b)
                n += 1
                i += 1
            }
            return nil
        }
        if let (string, next) = result {
            index = next
            return string
        }
        return try parseEscapedStringSlowly(start: start)
    }

    /// At an opening quote: when the string is plain ASCII without escapes or control
    /// characters, skips it and returns the range of its content; otherwise returns nil and
    /// leaves the position alone (decode it with ``parseString()``).
    mutating func plainString() -> Range<Int>? {
        let start = index + 1
        let end = Self.plainRunEnd(bytes, from: start)
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        index = end + 1
        return start..<end
    }

    /// The index of the first byte at or after `start` that is a quote, a backslash, a control
    /// character or not ASCII (`bytes.count` when there is none). Eight bytes at a time.
    @inline(__always)
    static func plainRunEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var i = start
        let count = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= count {
            let v = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            // A byte of x is zero when (x - 1) sets its high bit and x had it clear.
            let quote = v ^ (ones &* 0x22)
            let backslash = v ^ (ones &* 0x5C)
            var special = (quote &- ones) & ~quote
            special |= (backslash &- ones) & ~backslash
            special |= v &- (ones &* 0x20)  // bytes below 0x20 borrow into their high bit
            special |= v
            // Borrows only carry upwards, so the lowest flagged byte is the first special one.
            let flagged = special & highs
            if flagged != 0 { return i + flagged.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < count {
            let b = base[i]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 || b >= 0x80 { return i }
            i += 1
        }
        return i
    }

    /// Unescapes byte by byte (non-ASCII text or `\\u` escapes), validating the result.
    private mutating func parseEscapedStringSlowly(start: Int) throws(JSONParseError) -> String {
        var out = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return try out.withUnsafeBufferPointer { buffer throws(JSONParseError) in
                    try Self.validatedString(buffer, at: start)
                }
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw fail("unterminated escape") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): try appendUnicodeEscape(to: &out)
                default: throw fail("invalid escape")
                }
            default:
                if b < 0x20 { throw fail("control character in a string") }
                out.append(b)
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    private mutating func appendUnicodeEscape(to out: inout [UInt8]) throws(JSONParseError) {
        var scalar = try readHex4()
        if (0xD800...0xDBFF).contains(scalar) {
            // A high surrogate must be followed by \u and a low surrogate.
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                bytes[index + 1] == UInt8(ascii: "u")
            else { throw fail("lone surrogate", kind: .invalidUnicodeEscape) }
            index += 2
            let low = try readHex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw fail("invalid surrogate pair", kind: .invalidUnicodeEscape)
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw fail("lone surrogate", kind: .invalidUnicodeEscape)
        }
        guard let unicode = Unicode.Scalar(scalar) else {
            throw fail("invalid code point", kind: .invalidUnicodeEscape)
        }
        out.append(contentsOf: String(Character(unicode)).utf8)
    }

    private mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// A string from bytes known to be ASCII, copied straight into the string's storage: up to 15
    /// bytes become a small string whose ASCII-ness the standard library checks with one mask
    /// (`String(decoding:as:)` runs a validation pass and an ASCII scan first).
    @inline(__always)
    static func asciiString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { out in
            UnsafeMutableRawBufferPointer(out).copyMemory(from: UnsafeRawBufferPointer(bytes))
            return bytes.count
        }
    }

    private static func validatedString(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONParseError)
        -> String
    {
        // Most protocol strings are ASCII: skip the generic validating initializer for them
        // (profiling showed it dominating envelope decoding).
        var ascii = true
        for b in bytes where b >= 0x80 {
            ascii = false
            break
        }
        if ascii { return String(decoding: bytes, as: UTF8.self) }
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw JSONParseError(kind: .invalidUTF8, message: "invalid UTF-8 in a string", offset: offset)
        }
        return s
    }

    private static let powersOfTen: [Double] = (0...22).map { e in
        var p = 1.0
        for _ in 0..<e { p *= 10 }
        return p
    }

    /// The value of a well-formed JSON number when it can be computed exactly without a string
    /// conversion (Clinger's fast path): at most 2^53 as an integer of its digits and a decimal
    /// exponent (fraction and exponent part together) within ±22, so one correctly rounded
    /// multiplication or division gives the same double as `Double(String)`. Nil otherwise (the
    /// caller falls back to the full conversion).
    static func exactDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let count = text.count
        var negative = false
        if i < count && text[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var sawDot = false
        while i < count {
            let b = text[i]
            if b >= 0x30 && b <= 0x39 {
                if mantissa != 0 || b != 0x30 { digits += 1 }
                guard digits <= 17 else { return nil }
                mantissa = mantissa * 10 + UInt64(b - 0x30)
                if sawDot { exponent -= 1 }
            } else if b == UInt8(ascii: ".") {
                sawDot = true
            } else {
                break
            }
            i += 1
        }
        if i < count {
            // The exponent part: `e`/`E`, an optional sign, digits (the text is well formed).
            i += 1
            var negativeExponent = false
            if i < count && (text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+")) {
                negativeExponent = text[i] == UInt8(ascii: "-")
                i += 1
            }
            var written = 0
            while i < count {
                let digit = text[i] &- 0x30
                guard digit <= 9 else { return nil }
                written = JSONNumber.accumulateExponent(written, digit)
                i += 1
            }
            exponent += negativeExponent ? -written : written
        }
        guard i == count, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
        var value = Double(mantissa)
        if exponent < 0 {
            value /= powersOfTen[-exponent]
        } else if exponent > 0 {
            value *= powersOfTen[exponent]
        }
        return negative ? -value : value
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("unexpected end of input") }
        let ok = word.withUTF8Buffer { w in
            for i in 0..<count where bytes[index + i] != w[i] { return false }
            return true
        }
        guard ok else { throw fail("unexpected word") }
        index += count
    }

    // MARK: - Helpers

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    func fail(_ message: String, kind: JSONParseError.Kind = .syntax) -> JSONParseError {
        JSONParseError(kind: kind, message: message, offset: index)
    }

    /// Skips one value without building it; returns the byte range it occupied.
    mutating func skipValue() throws(JSONParseError) -> Range<Int> {
        let start = index
        guard let b = peek() else { throw fail("unexpected end of input") }
        switch b {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try skipContainer()
        default:
            _ = try parseValue()
        }
        return start..<index
    }

    /// Skips a string without decoding it (validity of escapes is checked lightly).
    mutating func skipString() throws(JSONParseError) {
        index += 1
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") { index += 1; return }
            if b == UInt8(ascii: "\\") { index += 2; continue }
            if b < 0x20 { throw fail("control character in a string") }
            index += 1
        }
        throw fail("unterminated string")
    }

    /// Skips an object or array by bracket matching, honouring strings.
    private mutating func skipContainer() throws(JSONParseError) {
        var level = 0
        while index < bytes.count {
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                try skipString()
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                level += 1
                guard level <= Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth)", kind: .tooDeep) }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                level -= 1
                if level == 0 { index += 1; return }
            default:
                break
            }
            index += 1
        }
        throw fail("unterminated container")
    }
}

// MARK: - Strings left escaped (the client's lazy `data`, WireEnvelope.swift)

extension JSONParser {
    /// At an opening quote: checks the string as ``parseString()`` would — escapes (`\u` with
    /// its surrogate rules) and control characters, with the same errors — without decoding it,
    /// and leaves the index after the closing quote. Returns the content's range (between the
    /// quotes) and whether it holds escapes. Bytes of 0x80 and above are passed over: call it
    /// only on bytes known to be UTF-8 (a `String`'s).
    mutating func checkedStringContent() throws(JSONParseError) -> (content: Range<Int>, escaped: Bool) {
        index += 1
        let start = index
        var escaped = false
        while true {
            index = Self.plainRunEnd(bytes, from: index)
            guard index < bytes.count else { throw fail("unterminated string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let content = start..<index
                index += 1
                return (content, escaped)
            }
            if b == UInt8(ascii: "\\") {
                escaped = true
                index += 1
                guard index < bytes.count else { throw fail("unterminated escape") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    continue
                case UInt8(ascii: "u"):
                    var scratch: [UInt8] = []
                    try appendUnicodeEscape(to: &scratch)
                default: throw fail("invalid escape")
                }
                continue
            }
            if b < 0x20 { throw fail("control character in a string") }
            index += 1  // a byte of a multi-byte character
        }
    }

    /// Undoes the one-character escapes of string content checked by
    /// ``checkedStringContent()`` into `out` (room for `content.count` bytes: unescaping never
    /// lengthens) and returns how many bytes it wrote; nil at a `\u` escape (decode such content
    /// with ``parseString()``).
    static func unescapeSimple(_ content: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>)
        -> Int?
    {
        guard let base = content.baseAddress, let target = out.baseAddress, out.count >= content.count else {
            return content.isEmpty ? 0 : nil
        }
        let count = content.count
        let source = UnsafeRawPointer(base)
        let sink = UnsafeMutableRawPointer(target)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let backslashes = ones &* 0x5C
        var n = 0  // never ahead of `i`: unescaping never lengthens
        var i = 0
        while i < count {
            // Bytes up to the next backslash are copied as they are (the content was checked: no
            // quote, no control character), one word at a time: a word is stored whole (`out`
            // has room: `n` ≤ `i`), and only its bytes before its first backslash count (the
            // lowest flagged byte: borrows only carry upwards).
            if i + 8 <= count {
                let word = UInt64(littleEndian: source.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let x = word ^ backslashes
                let flagged = (x &- ones) & ~x & (ones &* 0x80)
                sink.storeBytes(of: word.littleEndian, toByteOffset: n, as: UInt64.self)
                if flagged == 0 {
                    n += 8
                    i += 8
                    continue
                }
                let plain = flagged.trailingZeroBitCount >> 3
                n += plain
                i += plain
            }
            let b = base[i]
            guard b == UInt8(ascii: "\\") else {
                target[n] = b
                n += 1
                i += 1
                continue
            }
            guard i + 1 < count else { return nil }
            guard let c = JSONParser.unescaped(base[i + 1]) else { return nil }
            target[n] = c
            n += 1
            i += 2
        }
        return n
    }
}

extension JSONParser {
    /// The byte a one-character JSON escape (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`)
    /// stands for, given the byte after the backslash; nil for `u` and anything else.
    @inline(__always)
    static func unescaped(_ escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""): return 0x22
        case UInt8(ascii: "\\"): return 0x5C
        case UInt8(ascii: "/"): return 0x2F
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        default: return nil
        }
    }
}
