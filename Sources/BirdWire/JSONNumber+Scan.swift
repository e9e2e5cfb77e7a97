/// Reading a number from JSON bytes: the grammar, the integer fast path (digits accumulated as
/// they are checked), and the range check — with no string-to-double conversion except for the
/// rare magnitudes at the very edge of `Double`'s range.
extension JSONNumber {
    /// Reads one JSON number at `start` and returns it with the index just after it.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) throws(JSONParseError) -> (JSONNumber, Int) {
        let count = bytes.count
        var i = start
        var negative = false
        if i < count && bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard i < count, bytes[i] &- 0x30 <= 9 else { throw JSONParseError(message: "invalid number", offset: i) }
        let integerStart = i
        var magnitude: UInt64 = 0
        var overflow = false
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < count {
                let digit = bytes[i] &- 0x30
                if digit > 9 { break }
                if !overflow {
                    let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
                    if o1 || o2 { overflow = true } else { magnitude = sum }
                }
                i += 1
            }
        }
        let integerEnd = i
        var fractionStart = i
        var fractionEnd = i
        var integral = true
        if i < count && bytes[i] == UInt8(ascii: ".") {
            integral = false
            i += 1
            fractionStart = i
            guard i < count, bytes[i] &- 0x30 <= 9 else { throw JSONParseError(message: "invalid number", offset: i) }
            while i < count && bytes[i] &- 0x30 <= 9 { i += 1 }
            fractionEnd = i
        }
        var exponent = 0
        if i < count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            integral = false
            i += 1
            var exponentNegative = false
            if i < count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            guard i < count, bytes[i] &- 0x30 <= 9 else { throw JSONParseError(message: "invalid number", offset: i) }
            while i < count {
                let digit = bytes[i] &- 0x30
                if digit > 9 { break }
                exponent = Self.accumulateExponent(exponent, digit)
                i += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        if integral && !overflow {
            if !negative {
                return (
                    JSONNumber(storage: magnitude <= UInt64(Int64.max) ? .int(Int64(magnitude)) : .uint(magnitude)), i
                )
            }
            if magnitude != 0 && magnitude <= UInt64(Int64.max) + 1 {
                return (JSONNumber(storage: .int(Int64(bitPattern: 0 &- magnitude))), i)
            }
            // `-0` and integers below Int64.min keep their text.
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<i])
        // The decimal order of the leading significant digit: value = 0.d₁d₂… × 10^order.
        var order: Int?
        if bytes[integerStart] != UInt8(ascii: "0") {
            order = integerEnd - integerStart + exponent
        } else {
            var j = fractionStart
            while j < fractionEnd && bytes[j] == UInt8(ascii: "0") { j += 1 }
            if j < fractionEnd { order = exponent - (j - fractionStart) }
        }
        if let order, order >= 309 {
            // Double's largest finite value is 0.17976931348623157e309: beyond order 309 nothing
            // is finite; at 309 only the exact conversion can tell.
            let finite = order == 309 && (Double(String(decoding: text, as: UTF8.self))?.isFinite ?? false)
            guard finite else {
                throw JSONParseError(
                    kind: .numberOutOfRange, message: "number out of range (beyond ±1.8e308)", offset: start)
            }
        }
        return (JSONNumber(storage: .text(String(decoding: text, as: UTF8.self))), i)
    }

    /// `exponent * 10 + digit`, saturating far beyond any meaningful exponent (no overflow on
    /// a hostile run of digits).
    @inline(__always)
    static func accumulateExponent(_ exponent: Int, _ digit: UInt8) -> Int {
        exponent < 100_000_000_000_000_000 ? exponent * 10 + Int(digit) : exponent
    }
}
