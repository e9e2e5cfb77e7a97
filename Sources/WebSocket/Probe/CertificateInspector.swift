import COpenSSL
import Foundation
import ProbeFacts

/// Reads an established TLS session's peer certificate and checks it the way the client does,
/// plus the chain alone (no host name), so a report can tell an unknown CA from a wrong host.
enum CertificateInspector {
    /// The report for `ssl` after a completed handshake with `host` (the name the client uses).
    static func report(ssl: OpaquePointer, context: TLSContext, host: String) -> TLSFacts {
        let version = SSL_get_version(ssl).map { String(cString: $0) } ?? "unknown"
        let cipher =
            SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) } ?? "unknown"
        // The session verified with the host set (SSL_set1_host), verification not enforced:
        // this is exactly the result that makes the client's handshake fail, first error first.
        let verifyCode = Int(SSL_get_verify_result(ssl))
        let leaf = SSL_get1_peer_certificate(ssl)
        defer { if let leaf { X509_free(leaf) } }
        let chain = SSL_get_peer_cert_chain(ssl)
        var subjects: [String] = []
        if let chain {
            for i in 0..<bird_X509_stack_count(chain) {
                if let cert = bird_X509_stack_value(chain, i) { subjects.append(name(X509_get_subject_name(cert))) }
            }
        }
        guard let leaf else {
            return TLSFacts(
                protocolVersion: version, cipher: cipher, certificate: nil, chainSubjects: subjects,
                verifyCode: verifyCode, verifyReason: reason(verifyCode), chainCode: verifyCode,
                chainReason: reason(verifyCode), hostMatches: false)
        }
        let chainCode = verifyChain(leaf: leaf, chain: chain, store: SSL_CTX_get_cert_store(context.ctx))
        let matches: Bool
        if SocketAddress.isIPLiteral(host) {
            matches = X509_check_ip_asc(leaf, host, 0) == 1
        } else {
            matches = X509_check_host(leaf, host, host.utf8.count, 0, nil) == 1
        }
        return TLSFacts(
            protocolVersion: version, cipher: cipher, certificate: certificate(leaf), chainSubjects: subjects,
            verifyCode: verifyCode, verifyReason: reason(verifyCode), chainCode: chainCode,
            chainReason: reason(chainCode), hostMatches: matches)
    }

    /// The fields of a certificate.
    static func certificate(_ cert: OpaquePointer) -> CertificateFacts {
        let subjectName = X509_get_subject_name(cert)
        var dns: [String] = []
        var ips: [String] = []
        if let raw = X509_get_ext_d2i(cert, NID_subject_alt_name, nil, nil) {
            let names = OpaquePointer(raw)
            for i in 0..<bird_GENERAL_NAMES_count(names) {
                guard let entry = bird_GENERAL_NAMES_value(names, i) else { continue }
                switch entry.pointee.type {
                case GEN_DNS:
                    if let text = entry.pointee.d.dNSName { dns.append(asciiString(text)) }
                case GEN_IPADD:
                    if let bytes = entry.pointee.d.iPAddress { ips.append(ipText(bytes)) }
                default:
                    break
                }
            }
            bird_GENERAL_NAMES_free(names)
        }
        return CertificateFacts(
            subject: name(subjectName), issuer: name(X509_get_issuer_name(cert)),
            commonName: commonName(subjectName), dnsNames: dns, ipAddresses: ips,
            notBefore: unixTime(X509_get0_notBefore(cert)), notAfter: unixTime(X509_get0_notAfter(cert)))
    }

    /// Verifies `leaf` with the untrusted `chain` against `store` for a TLS server, host not
    /// checked; returns OpenSSL's error code (0: trusted and in date).
    private static func verifyChain(leaf: OpaquePointer, chain: OpaquePointer?, store: OpaquePointer?) -> Int {
        guard let store, let context = X509_STORE_CTX_new() else { return Int(X509_V_ERR_UNSPECIFIED) }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf, chain) == 1 else { return Int(X509_V_ERR_UNSPECIFIED) }
        _ = X509_STORE_CTX_set_default(context, "ssl_server")
        _ = X509_verify_cert(context)
        return Int(X509_STORE_CTX_get_error(context))
    }

    /// OpenSSL's words for a verify result.
    static func reason(_ code: Int) -> String {
        guard let text = X509_verify_cert_error_string(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// A name in RFC 2253 form.
    private static func name(_ name: OpaquePointer?) -> String {
        guard let name, let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        guard X509_NAME_print_ex(bio, name, 0, bird_XN_FLAG_RFC2253_UTF8()) >= 0 else { return "" }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let n = BIO_read(bio, &buffer, Int32(buffer.count))
            guard n > 0 else { break }
            out.append(contentsOf: buffer[0..<Int(n)])
            if out.count > 16 * 1024 { break }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func commonName(_ name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry)
        else {
            return nil
        }
        var utf8: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&utf8, data)
        guard length >= 0, let utf8 else { return nil }
        defer { bird_OPENSSL_free(utf8) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
    }

    private static func asciiString(_ string: UnsafePointer<ASN1_STRING>) -> String {
        let length = Int(ASN1_STRING_length(string))
        guard length > 0, let bytes = ASN1_STRING_get0_data(string) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    private static func ipText(_ string: UnsafePointer<ASN1_STRING>) -> String {
        let length = Int(ASN1_STRING_length(string))
        guard let bytes = ASN1_STRING_get0_data(string) else { return "" }
        let octets = Array(UnsafeBufferPointer(start: bytes, count: max(0, length)))
        if octets.count == 4 { return octets.map(String.init).joined(separator: ".") }
        if octets.count == 16 {
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: octets) }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "" }
            return Posix.string(buffer)
        }
        return octets.map { String($0, radix: 16) }.joined(separator: ":")
    }

    /// An ASN1_TIME as Unix seconds (0 when unreadable).
    private static func unixTime(_ time: UnsafePointer<ASN1_TIME>?) -> Int {
        guard let time else { return 0 }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return 0 }
        return Int(timegm(&parts))
    }
}
