import COpenSSL
import Foundation
import ProbeFacts

/// A WebSocket connection opened one layer at a time, each step reporting what it found:
/// resolve → TCP connect (one address) → TLS (certificate and verdict) → the upgrade (whatever
/// the server answered) → frames. `WebSocketClient` reports only the final outcome; this is for
/// tools that must say which layer broke (`bird-inspect doctor`).
///
/// The checks are the client's: the same trust store and CA file, the same host-name rules, the
/// same upgrade validation. The TLS handshake does not abort on a bad certificate, so the report
/// can show it; but nothing is sent over a connection whose certificate failed verification
/// (``upgrade(requestTarget:hostHeader:headers:timeout:)`` refuses).
///
/// Each step blocks a private serial queue (never the caller's executor) until it completes or
/// its timeout passes. Steps run in the order called; one probe is one connection.
public final class ConnectionProbe: @unchecked Sendable {
    private let queue = DispatchQueue(label: "bird.connection-probe")
    // Queue-confined state.
    private var socket: ProbeSocket?
    private var verificationProblem: String?
    private var upgraded = false
    private var parser = FrameParser(role: .client)
    private var assembler = MessageAssembler()

    /// Creates an idle probe.
    public init() {}

    deinit { socket?.close() }

    private func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }

    // MARK: Resolve

    /// Resolves `host` (IPv4 and IPv6, in the resolver's order). getaddrinfo cannot be
    /// interrupted: after `timeout` this returns `.timedOut` and the lookup finishes unobserved.
    public static func resolve(host: String, port: Int, timeout: Duration) async -> Result<[ProbeAddress], ProbeError> {
        let once = ResumeOnce<Result<[ProbeAddress], ProbeError>>()
        return await withCheckedContinuation { continuation in
            once.set(continuation)
            DispatchQueue.global().async {
                switch SocketAddress.resolve(host: host, port: port) {
                case .success(let addresses): once.resume(.success(addresses.map { ProbeAddress(address: $0) }))
                case .failure(.dnsFailure(_, let message)): once.resume(.failure(.failed(message)))
                case .failure(let error): once.resume(.failure(.failed(error.description)))
                }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + ProbeTime.seconds(timeout)) {
                once.resume(.failure(.timedOut))
            }
        }
    }

    // MARK: Connect

    /// Opens TCP to `address` (closing what this probe had open).
    public func connect(to address: ProbeAddress, timeout: Duration) async -> Result<Void, ProbeError> {
        await run {
            self.reset()
            switch ProbeSocket.connect(to: address.address, deadline: .now.advanced(by: timeout)) {
            case .success(let socket):
                self.socket = socket
                return .success(())
            case .failure(let error):
                return .failure(error)
            }
        }
    }

    // MARK: TLS

    /// Runs the TLS handshake for `host` (SNI for DNS names, host-name check for names and IP
    /// literals) trusting the system store plus `caFile`, and reports the certificate and the
    /// verdicts. A report with `verified == false` leaves the probe unable to send.
    public func startTLS(host: String, caFile: String?, timeout: Duration) async -> Result<TLSFacts, ProbeError> {
        await run {
            guard let socket = self.socket, socket.tls == nil else {
                return .failure(.notReady(self.socket == nil ? "not connected" : "TLS already started"))
            }
            let context: TLSContext
            switch TLSContext.client(caFile: caFile, host: host) {
            case .success(let c): context = c
            case .failure(.tls(_, let reason)): return .failure(.failed(reason))
            case .failure(let error): return .failure(.failed(error.description))
            }
            guard let session = TLSSession(context: context, fd: socket.fd, serverName: host) else {
                return .failure(.failed("cannot create a TLS session"))
            }
            // Verify but do not abort: the report shows the certificate, and `verified` gates sending.
            SSL_set_verify(session.ssl, bird_SSL_VERIFY_NONE(), nil)
            self.verificationProblem = "TLS not verified"
            switch socket.handshake(session, deadline: .now.advanced(by: timeout)) {
            case .failure(let error):
                return .failure(error)
            case .success:
                let report = CertificateInspector.report(ssl: session.ssl, context: context, host: host)
                self.verificationProblem =
                    report.verified ? nil : "the certificate failed verification: \(report.verifyReason)"
                return .success(report)
            }
        }
    }

    // MARK: Upgrade

    /// Sends the opening handshake (`GET requestTarget`, `Host: hostHeader`, fresh key, version
    /// 13, plus `headers`) and reads the answer's head, whatever its status. A valid 101 leaves
    /// the probe ready for frames.
    public func upgrade(
        requestTarget: String, hostHeader: String, headers: [HeaderLine] = [], timeout: Duration
    ) async -> Result<UpgradeAnswer, ProbeError> {
        await run {
            self.performUpgrade(
                requestTarget: requestTarget, hostHeader: hostHeader, headers: headers, timeout: timeout)
        }
    }

    private func performUpgrade(
        requestTarget: String, hostHeader: String, headers: [HeaderLine], timeout: Duration
    ) -> Result<UpgradeAnswer, ProbeError> {
        guard let socket else { return .failure(.notReady("not connected")) }
        if let verificationProblem { return .failure(.notReady(verificationProblem)) }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        let key = Handshake.randomKey()
        var request = "GET \(requestTarget) HTTP/1.1\r\nHost: \(hostHeader)\r\n"
        request +=
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for field in headers where !(field.name + field.value).contains(where: { $0 == "\r" || $0 == "\n" }) {
            request += "\(field.name): \(field.value)\r\n"
        }
        request += "\r\n"
        if case .failure(let error) = socket.write(Array(request.utf8), deadline: deadline) { return .failure(error) }
        var buffer: [UInt8] = []
        var end: Int?
        while end == nil {
            switch socket.read(deadline: deadline) {
            case .success(let bytes):
                buffer.append(contentsOf: bytes)
                end = HTTPHead.findEnd(buffer)
                if end == nil && buffer.count > 64 * 1024 {
                    return .failure(.failed("the response head is over 64 KiB"))
                }
            case .failure(.closed) where !buffer.isEmpty:
                return .failure(.failed(Self.describeNonHTTP(buffer)))
            case .failure(let error):
                return .failure(error)
            }
        }
        guard let end, let head = HTTPHead.parse(buffer[0..<end]) else {
            return .failure(.failed(Self.describeNonHTTP(buffer)))
        }
        let parts = head.startLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            return .failure(.failed("malformed status line: \(Self.printable(Array(head.startLine.utf8), limit: 120))"))
        }
        if status != 101 {
            // The start of the body says what answered (a web page, a proxy's error): read up to
            // 512 bytes of what the head announced, within the step's time.
            let wanted = Self.bodyBytesToShow(head.headers, limit: 512)
            while buffer.count - end < wanted, case .success(let bytes) = socket.read(deadline: deadline) {
                buffer.append(contentsOf: bytes)
            }
        }
        let accept = head.headers["Sec-WebSocket-Accept"]?.trimmingCharacters(in: .whitespaces)
        let report = UpgradeAnswer(
            statusLine: head.startLine, status: status,
            headers: head.headers.map { HeaderLine(name: $0.name, value: $0.value) },
            upgradeWebSocket: head.headers.contains(name: "Upgrade", token: "websocket"),
            connectionUpgrade: head.headers.contains(name: "Connection", token: "upgrade"),
            acceptPresent: accept != nil, acceptValid: accept == Handshake.acceptValue(forKey: key),
            bodyPrefix: status == 101 ? "" : Self.printable(Array(buffer[end...]), limit: 512))
        if report.isWebSocket {
            upgraded = true
            parser.append(buffer[end...])
        }
        return .success(report)
    }

    /// How many body bytes of a non-101 answer to wait for: the Content-Length (at most
    /// `limit`), `limit` for a body that ends with the connection, none for a chunked one.
    static func bodyBytesToShow(_ headers: HTTPHeaders, limit: Int) -> Int {
        if let length = headers["Content-Length"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), length >= 0
        {
            return min(length, limit)
        }
        if headers.contains(name: "Transfer-Encoding", token: "chunked") { return 0 }
        return headers.contains(name: "Connection", token: "close") ? limit : 0
    }

    // MARK: Frames

    /// Sends one text message (after a valid upgrade).
    public func send(text: String, timeout: Duration) async -> Result<Void, ProbeError> {
        await run {
            guard self.upgraded, let socket = self.socket else { return .failure(.notReady("no open WebSocket")) }
            let frame = FrameEncoder.encodeFrame(.text, Array(text.utf8), masked: true)
            return socket.write(frame, deadline: .now.advanced(by: timeout))
        }
    }

    /// Waits for the next message, pong or close; pings are answered on the way.
    public func receive(timeout: Duration) async -> ProbeMessage {
        await run { self.performReceive(deadline: .now.advanced(by: timeout)) }
    }

    private func performReceive(deadline: ContinuousClock.Instant) -> ProbeMessage {
        guard upgraded, let socket else { return .connectionLost("no open WebSocket") }
        while true {
            do {
                while let frame = try parser.next() {
                    guard let event = try assembler.push(frame) else { continue }
                    switch event {
                    case .text(let text): return .text(text)
                    case .binary(let bytes): return .binary(bytes.count)
                    case .pong: return .pong
                    case .ping(let payload):
                        _ = socket.write(FrameEncoder.encodeFrame(.pong, payload, masked: true), deadline: deadline)
                    case .closed(let info):
                        let payload = info.code == 1005 ? [] : FrameEncoder.closePayload(code: info.code, reason: "")
                        _ = socket.write(FrameEncoder.encodeFrame(.close, payload, masked: true), deadline: deadline)
                        finish()
                        return .closed(code: Int(info.code), reason: info.reason)
                    case .opened:
                        continue
                    }
                }
            } catch {
                let payload = FrameEncoder.closePayload(code: error.closeCode, reason: "")
                _ = socket.write(FrameEncoder.encodeFrame(.close, payload, masked: true), deadline: deadline)
                finish()
                return .protocolError(error.description)
            }
            switch socket.read(deadline: deadline) {
            case .success(let bytes): parser.append(bytes)
            case .failure(.timedOut): return .timedOut
            case .failure(.closed):
                finish()
                return .connectionLost("the connection closed without a close frame")
            case .failure(let error):
                finish()
                return .connectionLost(error.description)
            }
        }
    }

    /// Ends the connection: a close frame with `code` when a WebSocket is open (waiting briefly
    /// for the peer's), then TCP closed.
    public func close(code: UInt16 = 1000, timeout: Duration = .milliseconds(500)) async {
        await run {
            guard let socket = self.socket else { return }
            if self.upgraded {
                let deadline = ContinuousClock.now.advanced(by: timeout)
                let frame = FrameEncoder.encodeFrame(
                    .close, FrameEncoder.closePayload(code: code, reason: ""), masked: true)
                if case .success = socket.write(frame, deadline: deadline) {
                    // Wait for the peer's close frame (or the end of the stream) so it closes first.
                    reading: while case .success(let bytes) = socket.read(deadline: deadline) {
                        self.parser.append(bytes)
                        while let frame = try? self.parser.next() {
                            if frame.opcode == .close { break reading }
                        }
                    }
                }
            }
            self.finish()
        }
    }

    private func finish() {
        socket?.close()
        socket = nil
        upgraded = false
    }

    private func reset() {
        finish()
        verificationProblem = nil
        parser = FrameParser(role: .client)
        assembler = MessageAssembler()
    }

    // MARK: Text helpers

    /// Words for an answer that is not HTTP (a TLS alert, a banner, binary noise).
    static func describeNonHTTP(_ bytes: [UInt8]) -> String {
        if bytes.count >= 2, (0x14...0x17).contains(bytes[0]), bytes[1] == 0x03 {
            return "the server answered with TLS records, not HTTP (the port expects TLS)"
        }
        return "the answer is not HTTP: \(printable(bytes, limit: 80))"
    }

    /// Bytes as one line of text: UTF-8 (invalid bytes replaced), line breaks and tabs as one
    /// space, other control characters as `·`.
    static func printable(_ bytes: [UInt8], limit: Int) -> String {
        var out = ""
        for scalar in String(decoding: bytes.prefix(limit), as: UTF8.self).unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D, 0x20:
                if !out.hasSuffix(" ") && !out.isEmpty { out.append(" ") }
            case 0..<0x20, 0x7F:
                out.append("·")
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// Resumes a continuation once, whichever of several racers comes first.
private final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Never>?
    private var pending: T?
    private var done = false

    func set(_ continuation: CheckedContinuation<T, Never>) {
        lock.lock()
        if let pending {
            lock.unlock()
            continuation.resume(returning: pending)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    func resume(_ value: T) {
        lock.lock()
        guard !done else {
            lock.unlock()
            return
        }
        done = true
        guard let continuation else {
            pending = value
            lock.unlock()
            return
        }
        self.continuation = nil
        lock.unlock()
        continuation.resume(returning: value)
    }
}

/// Duration conversions for Dispatch.
enum ProbeTime {
    /// A duration as a DispatchTimeInterval (nanoseconds, saturating).
    static func seconds(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        let ns = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !ns.overflow, seconds >= 0 else { return seconds < 0 ? .nanoseconds(0) : .never }
        let total = ns.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000)
        return total.overflow ? .never : .nanoseconds(Int(total.partialValue))
    }
}
