/// What a fan-out publish carries so each receiver can time it: a sequence number and the send
/// time in `CLOCK_MONOTONIC` nanoseconds (publisher and receivers run on the same machine).
///
/// The publisher puts `{"seq":S,"t_ns":T,"pad":"…"}` in the event's data (as a JSON string, the
/// way the HTTP API carries data), so on the wire the keys appear escaped
/// (`{\"seq\":S,\"t_ns\":T…}`); ``find(in:)`` reads either form straight from the frame's bytes.
public struct FanoutStamp: Sendable, Equatable {
    /// The publish's sequence number within a run.
    public var seq: UInt64
    /// The publisher's monotonic clock just before it sent the publish, in nanoseconds.
    public var sentNanos: UInt64

    /// A stamp.
    public init(seq: UInt64, sentNanos: UInt64) {
        self.seq = seq
        self.sentNanos = sentNanos
    }

    /// The event data: a JSON object text padded with `x` to at least `size` bytes.
    public func payload(size: Int = 100) -> String {
        let head = "{\"seq\":\(seq),\"t_ns\":\(sentNanos),\"pad\":\""
        let padding = Swift.max(0, size - head.utf8.count - 2)
        return head + String(repeating: "x", count: padding) + "\"}"
    }

    /// The stamp in a received message's bytes (the whole protocol message, data escaped or
    /// not); nil when either key is missing or its value is not an unsigned 64-bit integer.
    public static func find(in bytes: UnsafeRawBufferPointer) -> FanoutStamp? {
        guard let seq = number(after: seqKey, in: bytes), let sent = number(after: timeKey, in: bytes) else {
            return nil
        }
        return FanoutStamp(seq: seq, sentNanos: sent)
    }

    /// ``find(in:)`` on a string's UTF-8.
    public static func find(in text: String) -> FanoutStamp? {
        var copy = text
        return copy.withUTF8 { find(in: UnsafeRawBufferPointer($0)) }
    }

    private static let seqKey: [UInt8] = Array("seq".utf8)
    private static let timeKey: [UInt8] = Array("t_ns".utf8)

    /// The integer after the first occurrence of `"KEY"` (or `\"KEY\"`) followed by a colon.
    private static func number(after key: [UInt8], in bytes: UnsafeRawBufferPointer) -> UInt64? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
        let count = bytes.count
        var start = 0
        while start + key.count <= count {
            // The key must follow a quote (the name's opening quote, escaped or not).
            guard let at = firstIndex(of: key, in: bytes, from: start) else { return nil }
            start = at + 1
            guard at > 0, bytes[at - 1] == quote else { continue }
            var i = at + key.count
            if i < count, bytes[i] == backslash { i += 1 }
            guard i < count, bytes[i] == quote else { continue }
            i += 1
            while i < count, bytes[i] == UInt8(ascii: " ") { i += 1 }
            guard i < count, bytes[i] == colon else { continue }
            i += 1
            while i < count, bytes[i] == UInt8(ascii: " ") { i += 1 }
            var value: UInt64 = 0
            var digits = 0
            while i < count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(UInt64(bytes[i] - UInt8(ascii: "0")))
                if o1 || o2 { return nil }
                value = sum
                digits += 1
                i += 1
            }
            return digits > 0 ? value : nil
        }
        return nil
    }

    private static func firstIndex(of key: [UInt8], in bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let first = key.first, bytes.count >= key.count else { return nil }
        var i = from
        let last = bytes.count - key.count
        outer: while i <= last {
            if bytes[i] == first {
                for j in 1..<key.count where bytes[i + j] != key[j] {
                    i += 1
                    continue outer
                }
                return i
            }
            i += 1
        }
        return nil
    }
}
