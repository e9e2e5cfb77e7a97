/// The head of an HTTP/1.x message: start line and header fields.
struct HTTPHead {
    var startLine: String
    var headers: HTTPHeaders

    /// The index just past the blank line ending the head in `bytes`, if present.
    static func findEnd(_ bytes: [UInt8], from start: Int = 0) -> Int? {
        guard bytes.count - start >= 4 else { return nil }
        var i = start
        let last = bytes.count - 4
        while i <= last {
            if bytes[i + 3] != 10 {
                i += 1
                continue
            }
            if bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 { return i + 4 }
            i += 1
        }
        return nil
    }

    /// Parses a head (up to and including the blank line); nil when malformed.
    static func parse(_ bytes: ArraySlice<UInt8>) -> HTTPHead? {
        var lines: [String] = []
        var lineStart = bytes.startIndex
        var i = bytes.startIndex
        while i < bytes.endIndex {
            if bytes[i] == 10 {
                var lineEnd = i
                if lineEnd > lineStart && bytes[lineEnd - 1] == 13 { lineEnd -= 1 }
                lines.append(decode(bytes[lineStart..<lineEnd]))
                lineStart = i + 1
            }
            i += 1
        }
        if lineStart < bytes.endIndex { lines.append(decode(bytes[lineStart...])) }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let first = lines.first, !first.isEmpty else { return nil }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon]
            guard !name.isEmpty, !name.contains(" "), !name.contains("\t") else { return nil }
            let value = line[line.index(after: colon)...].trimmingHTTPWhitespace()
            headers.add(name: String(name), value: String(value))
        }
        return HTTPHead(startLine: first, headers: headers)
    }

    /// How a request's head says its body is framed (RFC 9112 6.3, for requests).
    static func bodyFraming(_ headers: HTTPHeaders) -> RequestBodyFraming {
        let lengths = headers.values(for: "Content-Length")
        if !headers.values(for: "Transfer-Encoding").isEmpty {
            // Both framings at once is how requests are smuggled past proxies: never guess.
            return lengths.isEmpty ? .transferEncoded : .invalid("both Transfer-Encoding and Content-Length")
        }
        guard !lengths.isEmpty else { return .none }
        var length: Int?
        for field in lengths {
            for item in field.split(separator: ",", omittingEmptySubsequences: false) {
                guard let n = parseLength(item.trimmingHTTPWhitespace()) else {
                    return .invalid("invalid Content-Length")
                }
                if let length, length != n { return .invalid("conflicting Content-Length values") }
                length = n
            }
        }
        return length.map { .length($0) } ?? .invalid("invalid Content-Length")
    }

    /// The longest Content-Length accepted as a number: 18 digits always fit in an `Int`.
    static let maxLengthDigits = 18

    /// A Content-Length value: 1–18 ASCII digits (no sign, no spaces); nil otherwise.
    static func parseLength(_ text: Substring) -> Int? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= maxLengthDigits else { return nil }
        var value = 0
        for byte in utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)  // ≤ 10^18 - 1: cannot overflow
        }
        return value
    }

    /// UTF-8 when valid, otherwise Latin-1 (header values are octets).
    private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}

/// How a request's body is framed, from its head.
enum RequestBodyFraming: Equatable {
    /// Neither Content-Length nor Transfer-Encoding: no body.
    case none
    /// A Content-Length of this many bytes (0…10^18 - 1).
    case length(Int)
    /// Transfer-Encoding (chunked or other) without Content-Length: not supported by the server.
    case transferEncoded
    /// Malformed, conflicting, or both framings at once.
    case invalid(String)
}
