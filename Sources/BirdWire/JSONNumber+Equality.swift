/// Numeric equality and hashing: every spelling of a number is brought to one form — sign,
/// significant digits without leading or trailing zeros, and a power of ten — only when two
/// numbers are compared or hashed (parsing never does this work).
extension JSONNumber: Hashable {
    /// The canonical form of a number: `digits × 10^exponent`, with the sign.
    enum Canonical: Hashable {
        /// The significant digits fit in a `UInt64` (always for integers held as such).
        case small(negative: Bool, digits: UInt64, exponent: Int)
        /// More significant digits than a `UInt64` holds, as ASCII.
        case large(negative: Bool, digits: [UInt8], exponent: Int)

        var exponent: Int {
            switch self {
            case .small(_, _, let e), .large(_, _, let e): return e
            }
        }
    }

    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.int(let a), .int(let b)): return a == b
        case (.uint(let a), .uint(let b)): return a == b
        case (.int, .uint), (.uint, .int): return false
        default: return lhs.canonical == rhs.canonical
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(canonical)
    }

    var canonical: Canonical {
        switch storage {
        case .int(let value): return Self.canonical(negative: value < 0, magnitude: value.magnitude)
        case .uint(let value): return Self.canonical(negative: false, magnitude: value)
        case .text(let text): return Self.normalized(text)
        }
    }

    private static func canonical(negative: Bool, magnitude: UInt64) -> Canonical {
        guard magnitude != 0 else { return .small(negative: false, digits: 0, exponent: 0) }
        var digits = magnitude
        var exponent = 0
        while digits % 10 == 0 {
            digits /= 10
            exponent += 1
        }
        return .small(negative: negative, digits: digits, exponent: exponent)
    }

    /// The canonical form of valid JSON number text.
    static func normalized(_ text: String) -> Canonical {
        var negative = false
        var digits: [UInt8] = []
        var fractionDigits = 0
        var exponent = 0
        var exponentNegative = false
        var part = 0  // 0 integer, 1 fraction, 2 exponent
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"):
                if part == 2 { exponentNegative = true } else { negative = true }
            case UInt8(ascii: "+"):
                break
            case UInt8(ascii: "."):
                part = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                part = 2
            default:
                let digit = byte &- 0x30
                if part == 2 {
                    exponent = accumulateExponent(exponent, digit)
                } else {
                    if part == 1 { fractionDigits += 1 }
                    if !(digits.isEmpty && digit == 0) { digits.append(byte) }
                }
            }
        }
        if exponentNegative { exponent = -exponent }
        exponent -= fractionDigits
        while let last = digits.last, last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        guard !digits.isEmpty else { return .small(negative: false, digits: 0, exponent: 0) }
        var value: UInt64 = 0
        for byte in digits {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(byte &- 0x30))
            if o1 || o2 { return .large(negative: negative, digits: digits, exponent: exponent) }
            value = sum
        }
        return .small(negative: negative, digits: value, exponent: exponent)
    }

    /// The sign and magnitude of number text that is an integer within `UInt64`; nil otherwise.
    static func exactInteger(_ text: String) -> (negative: Bool, magnitude: UInt64)? {
        guard case .small(let negative, var value, let exponent) = normalized(text), exponent >= 0 else { return nil }
        for _ in 0..<exponent {
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            value = times10
        }
        return (negative, value)
    }
}
