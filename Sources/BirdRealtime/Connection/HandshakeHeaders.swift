/// The rules for extra headers on the WebSocket upgrade request
/// (`Options.handshakeHeadersProvider`): names are HTTP tokens, values carry no CR, LF, NUL or
/// other control characters but tab, the upgrade's own headers cannot be replaced, one name is
/// given once (case-insensitively), and the whole stays small. Values are never put in a message.
enum HandshakeHeaders {
    /// Headers the client's upgrade request sets itself (lowercased).
    static let reserved: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-accept",
        "sec-websocket-extensions", "sec-websocket-protocol", "content-length", "transfer-encoding",
    ]
    /// Most bytes of names and values together.
    static let maxBytes = 8 * 1024

    /// Checks `headers`; throws a message that names the offending header (never a value).
    static func validate(_ headers: [String: String]) throws(ConfigurationError) {
        var seen: Set<String> = []
        var bytes = 0
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard !name.isEmpty, name.unicodeScalars.allSatisfy(isTokenScalar) else {
                throw ConfigurationError(message: "handshake header name \(name.debugDescription) is not an HTTP token")
            }
            let lower = name.lowercased()
            guard !reserved.contains(lower) else {
                throw ConfigurationError(message: "handshake header \(name) is set by the client itself")
            }
            guard seen.insert(lower).inserted else {
                throw ConfigurationError(message: "handshake header \(name) is given twice (names ignore case)")
            }
            guard value.unicodeScalars.allSatisfy({ $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7f) }) else {
                throw ConfigurationError(message: "handshake header \(name) has a control character in its value")
            }
            bytes += name.utf8.count + value.utf8.count + 4
            guard bytes <= maxBytes else {
                throw ConfigurationError(message: "handshake headers exceed \(maxBytes) bytes")
            }
        }
    }

    /// RFC 9110 `tchar`.
    private static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        default: return "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
        }
    }
}
