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

    /// UTF-8 when valid, otherwise Latin-1 (header values are octets).
    private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
