import Foundation

/// A minimal HTTP/1.1 client over the same TCP/TLS code as `WebSocketClient` (same trust rules:
/// system store plus an optional CA file, hostname verification). Reads Content-Length, chunked
/// and read-until-close responses; one request per connection. Status codes must be three digits
/// (100–599); bodies over 8 MiB (`Content-Length`, chunk sizes, or read until close) fail with
/// `.httpMalformedResponse`.
public enum HTTPClient {
    /// Sends one request and returns the response. `url` must be `http://` or `https://`.
    public static func send(
        method: String, url: URL, headers: [String: String] = [:], body: [UInt8] = [],
        caFile: String? = nil, timeout: Duration = .seconds(10)
    ) async throws(WebSocketError) -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidURL("scheme must be http or https: \(url.absoluteString)")
        }
        guard var host = url.host(percentEncoded: false), !host.isEmpty else {
            throw .invalidURL("missing host: \(url.absoluteString)")
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let secure = scheme == "https"
        let defaultPort = secure ? 443 : 80
        let port = url.port ?? defaultPort
        guard (1...65535).contains(port) else { throw .invalidURL("invalid port \(port)") }
        var target = url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        let hostPart = host.contains(":") ? "[\(host)]" : host
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(port == defaultPort ? hostPart : "\(hostPart):\(port)")\r\n"
        var hasLength = false
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard !name.contains("\r"), !name.contains("\n"), !value.contains("\r"), !value.contains("\n") else {
                continue
            }
            if name.lowercased() == "connection" || name.lowercased() == "host" { continue }
            if name.lowercased() == "content-length" { hasLength = true }
            head += "\(name): \(value)\r\n"
        }
        if !hasLength && (!body.isEmpty || ["POST", "PUT", "PATCH"].contains(method.uppercased())) {
            head += "Content-Length: \(body.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        var request = Array(head.utf8)
        request.append(contentsOf: body)

        let exchange = HTTPExchange(
            host: host, port: port, secure: secure, caFile: caFile, request: request,
            isHead: method.uppercased() == "HEAD", timeout: timeout)
        let result = await withCheckedContinuation { continuation in
            exchange.start { continuation.resume(returning: $0) }
        }
        return try result.get()
    }
}

/// One HTTP request/response over a `SocketChannel` (loop thread, after `start`).
final class HTTPExchange: ChannelDelegate, @unchecked Sendable {
    typealias Response = (status: Int, headers: HTTPHeaders, body: [UInt8])

    private let loop = EventLoop.shared
    private let host: String
    private let port: Int
    private let secure: Bool
    private let caFile: String?
    private let request: [UInt8]
    private let isHead: Bool
    private let timeout: Duration
    private var completion: ((Result<Response, WebSocketError>) -> Void)?
    private var channel: SocketChannel?
    private var timer: EventLoop.Timer?
    private var buffer: [UInt8] = []
    private var head: (status: Int, headers: HTTPHeaders, bodyStart: Int)?

    init(host: String, port: Int, secure: Bool, caFile: String?, request: [UInt8], isHead: Bool, timeout: Duration) {
        self.host = host
        self.port = port
        self.secure = secure
        self.caFile = caFile
        self.request = request
        self.isHead = isHead
        self.timeout = timeout
    }

    func start(_ completion: @escaping @Sendable (Result<Response, WebSocketError>) -> Void) {
        loop.execute {
            self.completion = completion
            self.timer = self.loop.schedule(after: self.timeout) { [weak self] in self?.complete(.failure(.timeout)) }
        }
        let host = self.host
        let port = self.port
        DispatchQueue.global().async {
            let result = SocketAddress.resolve(host: host, port: port)
            self.loop.execute { self.resolved(result) }
        }
    }

    private func resolved(_ result: Result<[SocketAddress], WebSocketError>) {
        guard completion != nil else { return }
        switch result {
        case .failure(let error):
            complete(.failure(error))
        case .success(let addresses):
            var tls: TLSContext?
            if secure {
                switch TLSContext.client(caFile: caFile, host: host) {
                case .success(let ctx): tls = ctx
                case .failure(let error):
                    complete(.failure(error))
                    return
                }
            }
            let channel = SocketChannel(
                loop: loop, connectingTo: addresses, host: host, port: port, tlsContext: tls, delegate: self)
            self.channel = channel
            channel.start()
        }
    }

    private func complete(_ result: Result<Response, WebSocketError>) {
        guard let completion else { return }
        self.completion = nil
        timer?.cancel()
        channel?.close()
        channel = nil
        completion(result)
    }

    func channelActive(_ channel: SocketChannel) {
        channel.write(request)
    }

    func channelWrote(_ channel: SocketChannel, count: Int) {}

    func channelRead(_ channel: SocketChannel, _ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
        parse(eof: false)
    }

    func channelClosed(_ channel: SocketChannel, error: WebSocketError?) {
        self.channel = nil
        if let error, head == nil {
            complete(.failure(error))
            return
        }
        parse(eof: true)
        if completion != nil {
            complete(
                .failure(
                    .httpMalformedResponse(head == nil ? "connection closed before the response" : "truncated body")))
        }
    }

    private func parse(eof: Bool) {
        if head == nil {
            guard let end = HTTPHead.findEnd(buffer) else {
                if buffer.count > 64 * 1024 { complete(.failure(.httpMalformedResponse("response head too large"))) }
                return
            }
            guard let parsed = HTTPHead.parse(buffer[0..<end]) else {
                complete(.failure(.httpMalformedResponse("malformed head")))
                return
            }
            guard let status = ResponseNumbers.status(ofStatusLine: parsed.startLine) else {
                complete(.failure(.httpMalformedResponse("malformed status line")))
                return
            }
            if status >= 100 && status < 200 {  // interim response: skip it
                buffer.removeSubrange(0..<end)
                parse(eof: eof)
                return
            }
            head = (status, parsed.headers, end)
        }
        guard let head else { return }
        let body = buffer[head.bodyStart...]
        if body.count > ResponseNumbers.maxBody + 64 * 1024 {  // room for chunk framing
            complete(.failure(.httpMalformedResponse("body larger than \(ResponseNumbers.maxBody) bytes")))
            return
        }
        if isHead || head.status == 204 || head.status == 304 {
            complete(.success((head.status, head.headers, [])))
        } else if head.headers.contains(name: "Transfer-Encoding", token: "chunked") {
            switch Self.decodeChunked(body) {
            case .complete(let bytes): complete(.success((head.status, head.headers, bytes)))
            case .incomplete: break
            case .malformed: complete(.failure(.httpMalformedResponse("malformed chunked body")))
            case .tooLarge:
                complete(.failure(.httpMalformedResponse("chunk larger than \(ResponseNumbers.maxBody) bytes")))
            }
        } else if let value = head.headers["Content-Length"] {
            let length: Int
            switch ResponseNumbers.contentLength(value) {
            case .success(let n): length = n
            case .failure(.malformed):
                complete(.failure(.httpMalformedResponse("invalid Content-Length")))
                return
            case .failure(.tooLarge):
                complete(.failure(.httpMalformedResponse("Content-Length over \(ResponseNumbers.maxBody) bytes")))
                return
            }
            if body.count >= length { complete(.success((head.status, head.headers, Array(body.prefix(length))))) }
        } else if eof {
            complete(.success((head.status, head.headers, Array(body))))
        }
    }

    enum Chunked: Equatable { case complete([UInt8]), incomplete, malformed, tooLarge }

    /// Decodes a chunked body if it is complete. Chunk sizes are checked before any arithmetic:
    /// a size over 8 MiB, or a body growing past it, is `.tooLarge`.
    static func decodeChunked(_ bytes: ArraySlice<UInt8>) -> Chunked {
        var out: [UInt8] = []
        var i = bytes.startIndex
        while true {
            guard let lineEnd = findCRLF(bytes, from: i) else { return .incomplete }
            let sizeText = String(decoding: bytes[i..<lineEnd], as: UTF8.self)
            let size: Int
            switch ResponseNumbers.chunkSize(sizeText) {
            case .success(let n): size = n
            case .failure(.malformed): return .malformed
            case .failure(.tooLarge): return .tooLarge
            }
            if out.count + size > ResponseNumbers.maxBody { return .tooLarge }
            i = lineEnd + 2
            if size == 0 {
                // Trailers end with an empty line.
                while true {
                    guard let end = findCRLF(bytes, from: i) else { return .incomplete }
                    if end == i { return .complete(out) }
                    i = end + 2
                }
            }
            guard bytes.endIndex - i >= size + 2 else { return .incomplete }
            out.append(contentsOf: bytes[i..<(i + size)])
            i += size
            guard bytes[i] == 13, bytes[i + 1] == 10 else { return .malformed }
            i += 2
        }
    }

    private static func findCRLF(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var i = start
        while i + 1 < bytes.endIndex {
            if bytes[i] == 13 && bytes[i + 1] == 10 { return i }
            i += 1
        }
        return nil
    }
}
