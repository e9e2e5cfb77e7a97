import COpenSSL
import Foundation

/// An OpenSSL context: a verifying client context (system trust store plus an optional CA file,
/// TLS 1.2 minimum) or a server context (certificate chain and key files).
final class TLSContext: @unchecked Sendable {
    let ctx: OpaquePointer

    private init(ctx: OpaquePointer) { self.ctx = ctx }
    deinit { SSL_CTX_free(ctx) }

    private static let cacheLock = NSLock()
    nonisolated(unsafe) private static var clientCache: [String: TLSContext] = [:]

    /// A client context that verifies peers; cached per CA file.
    static func client(caFile: String?, host: String) -> Result<TLSContext, WebSocketError> {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        let key = caFile ?? ""
        if let cached = clientCache[key] { return .success(cached) }
        guard let ctx = SSL_CTX_new(TLS_client_method()) else {
            return .failure(.tls(host: host, reason: "cannot create TLS context: \(lastError())"))
        }
        let context = TLSContext(ctx: ctx)
        _ = bird_SSL_CTX_set_min_proto_version(ctx, bird_TLS1_2_VERSION())
        _ = bird_SSL_CTX_set_mode(
            ctx, bird_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER() | bird_SSL_MODE_ENABLE_PARTIAL_WRITE())
        SSL_CTX_set_verify(ctx, bird_SSL_VERIFY_PEER(), nil)
        _ = SSL_CTX_set_default_verify_paths(ctx)
        if let caFile {
            guard SSL_CTX_load_verify_locations(ctx, caFile, nil) == 1 else {
                return .failure(.tls(host: host, reason: "cannot load CA file \(caFile): \(lastError())"))
            }
        }
        clientCache[key] = context
        return .success(context)
    }

    /// A server context from PEM certificate-chain and private-key files.
    static func server(certificateFile: String, privateKeyFile: String) -> Result<TLSContext, WebSocketError> {
        guard let ctx = SSL_CTX_new(TLS_server_method()) else {
            return .failure(.tls(host: "", reason: "cannot create TLS context: \(lastError())"))
        }
        let context = TLSContext(ctx: ctx)
        _ = bird_SSL_CTX_set_min_proto_version(ctx, bird_TLS1_2_VERSION())
        _ = bird_SSL_CTX_set_mode(
            ctx, bird_SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER() | bird_SSL_MODE_ENABLE_PARTIAL_WRITE())
        guard SSL_CTX_use_certificate_chain_file(ctx, certificateFile) == 1 else {
            return .failure(.tls(host: "", reason: "cannot load certificate \(certificateFile): \(lastError())"))
        }
        guard SSL_CTX_use_PrivateKey_file(ctx, privateKeyFile, bird_SSL_FILETYPE_PEM()) == 1,
            SSL_CTX_check_private_key(ctx) == 1
        else {
            return .failure(.tls(host: "", reason: "cannot load private key \(privateKeyFile): \(lastError())"))
        }
        return .success(context)
    }

    /// The oldest queued OpenSSL error as text (and clears the queue).
    static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "unknown error" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return Posix.string(buffer)
    }
}

/// One TLS session over a non-blocking socket (loop thread only).
final class TLSSession {
    enum IOResult {
        case bytes(Int)
        case wantRead
        case wantWrite
        case closed
        case failed(String)
    }

    let ssl: OpaquePointer
    let isClient: Bool
    let context: TLSContext  // keeps the context alive

    init?(context: TLSContext, fd: Int32, serverName: String?) {
        guard let ssl = SSL_new(context.ctx) else { return nil }
        self.ssl = ssl
        self.context = context
        self.isClient = serverName != nil
        SSL_set_fd(ssl, fd)
        if let name = serverName {
            _ = SSL_set1_host(ssl, name)
            if !SocketAddress.isIPLiteral(name) { _ = bird_SSL_set_tlsext_host_name(ssl, name) }
            SSL_set_connect_state(ssl)
        } else {
            SSL_set_accept_state(ssl)
        }
    }

    deinit { SSL_free(ssl) }

    /// Advances the handshake: `.bytes(0)` when done.
    func handshake() -> IOResult {
        ERR_clear_error()
        let rc = SSL_do_handshake(ssl)
        if rc == 1 { return .bytes(0) }
        return classify(rc, handshake: true)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        ERR_clear_error()
        let rc = SSL_read(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        if rc > 0 { return .bytes(Int(rc)) }
        return classify(rc, handshake: false)
    }

    func write(_ buffer: UnsafeRawBufferPointer) -> IOResult {
        ERR_clear_error()
        let rc = SSL_write(ssl, buffer.baseAddress, Int32(min(buffer.count, 1 << 20)))
        if rc > 0 { return .bytes(Int(rc)) }
        return classify(rc, handshake: false)
    }

    var pending: Int { Int(SSL_pending(ssl)) }

    /// Sends close_notify (best effort).
    func shutdown() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    private func classify(_ rc: Int32, handshake: Bool) -> IOResult {
        let savedErrno = errno
        let err = SSL_get_error(ssl, rc)
        switch err {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_ZERO_RETURN: return .closed
        default:
            if handshake && isClient {
                let verify = SSL_get_verify_result(ssl)
                if verify != Int(X509_V_OK) {
                    ERR_clear_error()
                    return .failed(String(cString: X509_verify_cert_error_string(verify)))
                }
            }
            if err == SSL_ERROR_SYSCALL && ERR_peek_error() == 0 {
                if savedErrno == 0 || !handshake {
                    return savedErrno == 0 ? .closed : .failed(Posix.errorString(savedErrno))
                }
                return .failed(Posix.errorString(savedErrno))
            }
            if !handshake, ERR_peek_error() != 0 {
                let reason = TLSContext.lastError()
                if reason.contains("unexpected eof") { return .closed }
                return .failed(reason)
            }
            return .failed(TLSContext.lastError())
        }
    }
}
