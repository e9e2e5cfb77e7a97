/// IP addresses from their bytes to text: dotted quad for 4 bytes, RFC 5952 for 16 (lowercase,
/// no leading zeros, the longest run of two or more zero groups as `::`). Other lengths are shown
/// as hex bytes.
enum AddressText {
    static func format(_ bytes: [UInt8]) -> String {
        switch bytes.count {
        case 4:
            return bytes.map(String.init).joined(separator: ".")
        case 16:
            return ipv6(bytes)
        default:
            return bytes.map { hex($0) }.joined(separator: ":")
        }
    }

    private static func ipv6(_ bytes: [UInt8]) -> String {
        var groups: [UInt16] = []
        for i in stride(from: 0, to: 16, by: 2) {
            groups.append(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
        }
        // The longest run of zero groups (first one on ties), if at least two long.
        var bestStart = -1
        var bestLength = 0
        var runStart = -1
        for (i, group) in groups.enumerated() {
            if group == 0 {
                if runStart < 0 { runStart = i }
                let length = i - runStart + 1
                if length > bestLength {
                    bestStart = runStart
                    bestLength = length
                }
            } else {
                runStart = -1
            }
        }
        let text = groups.map { String($0, radix: 16) }
        guard bestLength >= 2 else { return text.joined(separator: ":") }
        let head = text[..<bestStart].joined(separator: ":")
        let tail = text[(bestStart + bestLength)...].joined(separator: ":")
        return head + "::" + tail
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }
}
