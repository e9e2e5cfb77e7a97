import COpenSSL

/// Signature strings and HMAC-SHA256 signing (docs/PROTOCOL.md § Signatures).
package enum Signature {
    /// The string signed for a private channel: `<connection_id>:<channel>`.
    package static func privateChannelString(connectionId: String, channel: String) -> String {
        "\(connectionId):\(channel)"
    }

    /// The string signed for a presence channel: `<connection_id>:<channel>:<member_data>`.
    package static func presenceChannelString(connectionId: String, channel: String, memberData: String) -> String {
        "\(connectionId):\(channel):\(memberData)"
    }

    /// The string signed for a sign-in: `<connection_id>::member::<member_data>` (bird) or
    /// `<socket_id>::user::<user_data>` (pusher). A channel auth can never pass as a sign-in.
    package static func signinString(connectionId: String, memberData: String, dialect: Dialect) -> String {
        "\(connectionId)::\(dialect.signinTag)::\(memberData)"
    }

    /// The string signed for a channel subscription: private, or presence when `memberData` is given.
    package static func channelString(connectionId: String, channel: String, memberData: String?) -> String {
        if let memberData {
            return presenceChannelString(connectionId: connectionId, channel: channel, memberData: memberData)
        }
        return privateChannelString(connectionId: connectionId, channel: channel)
    }

    /// `"<app_key>:<hex>"`, the `auth` value of subscriptions and sign-ins.
    package static func auth(appKey: String, secret: String, string: String) -> String {
        "\(appKey):\(hmacSHA256Hex(key: secret, message: string))"
    }

    /// Whether `auth` is the right `"<app_key>:<hex>"` for `string`, compared in constant time.
    package static func verify(auth: String, appKey: String, secret: String, string: String) -> Bool {
        constantTimeEquals(auth, self.auth(appKey: appKey, secret: secret, string: string))
    }

    /// Lowercase hex HMAC-SHA256 of `message` under `key`.
    package static func hmacSHA256Hex(key: String, message: String) -> String {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let keyBytes = Array(key.utf8)
        let messageBytes = Array(message.utf8)
        keyBytes.withUnsafeBufferPointer { k in
            messageBytes.withUnsafeBufferPointer { m in
                _ = HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, &out, &length)
            }
        }
        return hex(out.prefix(Int(length)))
    }

    /// Lowercase hex MD5 of `bytes` (the HTTP API's `body_md5`).
    package static func md5Hex(_ bytes: [UInt8]) -> String {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        bytes.withUnsafeBufferPointer { b in
            _ = EVP_Digest(b.baseAddress, b.count, &out, &length, EVP_md5(), nil)
        }
        return hex(out.prefix(Int(length)))
    }

    /// Compares two strings in time that depends only on their lengths.
    package static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<x.count { diff |= x[i] ^ y[i] }
        return diff == 0
    }

    /// The string an HTTP API request signs: `METHOD\nPATH\nk=v&…` with every query parameter
    /// except `auth_signature`, sorted by key, not URL-encoded.
    package static func httpAPIString(method: String, path: String, query: [(name: String, value: String)]) -> String {
        let params =
            query
            .filter { $0.name != "auth_signature" }
            .sorted { $0.name < $1.name }
            .map { "\($0.name)=\($0.value)" }
            .joined(separator: "&")
        return "\(method.uppercased())\n\(path)\n\(params)"
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
