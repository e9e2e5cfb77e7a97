/// XOR masking (RFC 6455 §5.3), eight bytes at a time.
enum Masking {
    /// Applies `key` in place to `bytes`, starting at key offset 0.
    static func apply(key: (UInt8, UInt8, UInt8, UInt8), to bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let count = bytes.count
        let k4 = UInt32(key.0) | UInt32(key.1) << 8 | UInt32(key.2) << 16 | UInt32(key.3) << 24
        let k8 = UInt64(k4) | UInt64(k4) << 32  // little-endian byte order matches memory order
        var i = 0
        while i + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            base.storeBytes(of: word ^ k8.littleEndian, toByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < count {
            let b = base.load(fromByteOffset: i, as: UInt8.self)
            let k = UInt8(truncatingIfNeeded: k4 >> UInt32((i & 3) * 8))
            base.storeBytes(of: b ^ k, toByteOffset: i, as: UInt8.self)
            i += 1
        }
    }
}
