/// A parsed HTTP/1.1 request received by `WebSocketServer`.
public struct HTTPRequest: Sendable {
    /// The method, e.g. `GET`.
    public var method: String
    /// The raw request target (`path?query`), as received.
    public var target: String
    /// The percent-decoded path.
    public var path: String
    /// The query parameters, percent-decoded (`+` as space), in order.
    public var query: [(name: String, value: String)]
    /// The request headers.
    public var headers: HTTPHeaders
    /// The request body (Content-Length bytes).
    public var body: [UInt8]
    /// The peer's address, e.g. `127.0.0.1:54321` or `[::1]:54321`.
    public var remoteAddress: String

    /// Creates a request; `path` and `query` are derived from `target`.
    public init(
        method: String, target: String, headers: HTTPHeaders = .init(), body: [UInt8] = [], remoteAddress: String = ""
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.path = PercentCoding.decode(parts.first.map(String.init) ?? "", plusAsSpace: false)
        self.query = parts.count > 1 ? PercentCoding.parseQuery(String(parts[1])) : []
    }

    /// The first value of the query parameter `name`, or nil.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}

/// An HTTP response for `WebSocketServer`'s HTTP handler (or a refused upgrade).
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The response headers (Content-Length is added when writing).
    public var headers: HTTPHeaders
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = .init(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response (`Content-Type: application/json`).
    public static func json(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
    }

    /// A plain-text response (`Content-Type: text/plain; charset=utf-8`).
    public static func text(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(body.utf8))
    }

    /// The serialized response. `keepAlive` decides the Connection header.
    func serialized(keepAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\n"
        for (name, value) in headers {
            let lower = name.lowercased()
            if lower == "content-length" || lower == "connection" { continue }
            head += "\(name): \(value)\r\n"
        }
        if status != 101 {
            head += "Content-Length: \(body.count)\r\n"
            head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        } else if let conn = headers["Connection"] {
            head += "Connection: \(conn)\r\n"
        }
        head += "\r\n"
        var out = Array(head.utf8)
        out.append(contentsOf: body)
        return out
    }
}

enum HTTPStatus {
    static func reason(_ status: Int) -> String {
        switch status {
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 411: return "Length Required"
        case 413: return "Payload Too Large"
        case 415: return "Unsupported Media Type"
        case 422: return "Unprocessable Entity"
        case 426: return "Upgrade Required"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        default: return "Status \(status)"
        }
    }
}

/// Percent-decoding of request targets and `application/x-www-form-urlencoded` bodies (the
/// sandbox's form bodies too): `%XX` decoded, an invalid escape kept literally, `+` as a space
/// where asked; the bytes then read as UTF-8 (invalid sequences replaced).
package enum PercentCoding {
    /// `s` percent-decoded.
    package static func decode(_ s: String, plusAsSpace: Bool) -> String {
        decode(bytes: Array(s.utf8), plusAsSpace: plusAsSpace)
    }

    /// `bytes` percent-decoded.
    package static func decode(bytes: [UInt8], plusAsSpace: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "%"), i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) {
                out.append(h << 4 | l)
                i += 3
                continue
            }
            out.append(plusAsSpace && b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The `name=value` pairs of a query, in order, names and values decoded with `+` as a space.
    package static func parseQuery(_ q: String) -> [(name: String, value: String)] {
        q.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(String(kv[0]), plusAsSpace: true)
            let value = kv.count > 1 ? decode(String(kv[1]), plusAsSpace: true) : ""
            return (name: name, value: value)
        }
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
