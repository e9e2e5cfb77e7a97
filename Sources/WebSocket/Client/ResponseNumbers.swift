/// The numbers a client reads from an HTTP response head and a chunked body, each checked against
/// its range (RFC 9110/9112): nil means "malformed", never a trap, whatever the server sent.
enum ResponseNumbers {
    /// The largest body `HTTPClient` accepts (auth answers are a few hundred bytes): 8 MiB.
    static let maxBody = 8 << 20

    /// The status code of a status line `HTTP/1.x NNN reason`: exactly three digits, 100–599.
    static func status(ofStatusLine line: String) -> Int? {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
        let digits = parts[1].utf8
        guard digits.count == 3, digits.allSatisfy({ (0x30...0x39).contains($0) }), let code = Int(parts[1]),
            (100...599).contains(code)
        else { return nil }
        return code
    }

    /// A `Content-Length` value: decimal digits only (no sign, no list), at most ``maxBody``.
    /// `.tooLarge` for a well-formed length beyond the limit.
    static func contentLength(_ value: String) -> Result<Int, ResponseNumberError> {
        let text = value.trimmingHTTPSpaces()
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return .failure(.malformed) }
        // 19 digits can exceed Int.max; anything that long is over the limit anyway.
        guard text.utf8.count <= 18, let length = Int(text) else { return .failure(.tooLarge) }
        return length <= maxBody ? .success(length) : .failure(.tooLarge)
    }

    /// A chunk-size line's hexadecimal size (extensions after `;` ignored), at most ``maxBody``.
    static func chunkSize(_ line: String) -> Result<Int, ResponseNumberError> {
        let hex =
            (line.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "")
            .trimmingHTTPSpaces()
        let isHex: (UInt8) -> Bool = {
            (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0)
        }
        guard !hex.isEmpty, hex.utf8.allSatisfy(isHex) else { return .failure(.malformed) }
        let significant = hex.drop(while: { $0 == "0" })
        guard significant.utf8.count <= 15, let size = Int(hex, radix: 16) else { return .failure(.tooLarge) }
        return size <= maxBody ? .success(size) : .failure(.tooLarge)
    }
}

/// Why a response number was refused.
enum ResponseNumberError: Error, Equatable {
    /// Not a number of the expected form.
    case malformed
    /// A number beyond ``ResponseNumbers/maxBody``.
    case tooLarge
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate func trimmingHTTPSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
