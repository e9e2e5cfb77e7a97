/// The package's one rule for "is this loopback?" — used wherever plain `ws://`/`http://` is
/// allowed (the client's `allowInsecure`, the inspector's and the doctor's `--insecure`), and
/// wherever only local callers are served (the sandbox's control API and demo auth endpoints).
///
/// A host is loopback when it is, ignoring case and one pair of brackets:
/// - `localhost`;
/// - an IPv4 address in `127.0.0.0/8`, written as four decimal octets (`127.0.0.1`, `127.1.2.3`;
///   not `127.1`, `0177.0.0.1` or `127.0.0.1.nip.io`);
/// - `::1`;
/// - an IPv4-mapped IPv6 address of one of those (`::ffff:127.0.0.1`), as a dual-stack socket
///   reports an IPv4 peer.
///
/// Nothing else: no other spelling of `::1`, no name that merely resolves to loopback.
package enum Loopback {
    /// Whether `host` (a bare host, `[v6]` allowed) is loopback.
    package static func isLoopback(host: some StringProtocol) -> Bool {
        var name = Substring(host).lowercased()[...]
        if name.hasPrefix("["), name.hasSuffix("]"), name.count >= 2 { name = name.dropFirst().dropLast() }
        if name == "localhost" || name == "::1" { return true }
        if name.hasPrefix("::ffff:") { name = name.dropFirst(7) }
        return isLoopbackIPv4(name)
    }

    /// Whether `authority` — `host`, `host:port`, `[v6]` or `[v6]:port`, or a bare IPv6 address
    /// such as a socket's peer — names a loopback host. The port, when present, is not checked.
    package static func isLoopback(authority: some StringProtocol) -> Bool {
        guard let host = host(ofAuthority: authority) else { return false }
        return isLoopback(host: host)
    }

    /// The host of an authority (`[v6]` kept in brackets), and the port text after its colon when
    /// there is one; nil when a bracketed host is not closed or is followed by anything but
    /// `:port`. An address with two or more colons and no brackets is a bare IPv6 host.
    package static func host(ofAuthority authority: some StringProtocol) -> Substring? {
        split(authority)?.host
    }

    /// ``host(ofAuthority:)`` and the port text (nil when no `:` follows the host).
    package static func split(_ authority: some StringProtocol) -> (host: Substring, port: Substring?)? {
        let text = Substring(authority)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return (text[...close], nil) }
            guard rest.first == ":" else { return nil }
            return (text[...close], rest.dropFirst())
        }
        let colons = text.reduce(0) { $0 + ($1 == ":" ? 1 : 0) }
        if colons == 1, let colon = text.firstIndex(of: ":") {
            return (text[..<colon], text[text.index(after: colon)...])
        }
        return (text, nil)
    }

    /// Four decimal octets of at most three digits each, each ≤ 255, the first 127.
    private static func isLoopbackIPv4(_ text: Substring) -> Bool {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            !octet.isEmpty && octet.utf8.count <= 3 && octet.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                && (Int(octet) ?? 256) <= 255
        }
    }
}
