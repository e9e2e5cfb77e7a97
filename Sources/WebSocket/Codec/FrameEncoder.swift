/// Writes WebSocket frames. Client frames must be masked (`mask` non-nil); server frames not.
public enum FrameEncoder {
    /// Encodes one frame. `mask`, when given, is applied to the payload and written in the header.
    public static func encode(
        opcode: WebSocketOpcode, payload: some Collection<UInt8>, fin: Bool = true,
        mask: (UInt8, UInt8, UInt8, UInt8)?
    ) -> [UInt8] {
        var out: [UInt8] = []
        encode(opcode: opcode, payload: payload, fin: fin, mask: mask, into: &out)
        return out
    }

    /// Encodes one frame, appending it to `out` (lets several frames share one buffer and write).
    public static func encode(
        opcode: WebSocketOpcode, payload: some Collection<UInt8>, fin: Bool = true,
        mask: (UInt8, UInt8, UInt8, UInt8)?, into out: inout [UInt8]
    ) {
        let count = payload.count
        out.reserveCapacity(out.count + count + 14)
        out.append((fin ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        if count < 126 {
            out.append(maskBit | UInt8(count))
        } else if count <= 0xFFFF {
            out.append(maskBit | 126)
            out.append(UInt8(count >> 8))
            out.append(UInt8(count & 0xFF))
        } else {
            out.append(maskBit | 127)
            let c = UInt64(count)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((c >> UInt64(shift)) & 0xFF)) }
        }
        guard let key = mask else {
            out.append(contentsOf: payload)
            return
        }
        out.append(key.0); out.append(key.1); out.append(key.2); out.append(key.3)
        let start = out.count
        out.append(contentsOf: payload)
        out.withUnsafeMutableBytes { raw in
            Masking.apply(key: key, to: UnsafeMutableRawBufferPointer(rebasing: raw[start...]))
        }
    }

    /// A fresh random masking key from the system's secure generator.
    public static func randomMask() -> (UInt8, UInt8, UInt8, UInt8) {
        var rng = SystemRandomNumberGenerator()
        let v = rng.next() as UInt32
        return (UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24))
    }

    /// The payload of a close frame: the code in network order followed by the UTF-8 reason,
    /// truncated to fit the 125-byte control-frame limit on a character boundary.
    public static func closePayload(code: UInt16, reason: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(code >> 8), UInt8(code & 0xFF)]
        var reasonBytes = Array(reason.utf8)
        if reasonBytes.count > 123 {
            var cut = 123
            while cut > 0 && reasonBytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            reasonBytes = Array(reasonBytes[0..<cut])
        }
        out.append(contentsOf: reasonBytes)
        return out
    }
}

extension FrameEncoder {
    /// Encodes one frame, masked with a fresh random key when `masked`.
    static func encodeFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true, masked: Bool) -> [UInt8] {
        encode(opcode: opcode, payload: payload, fin: fin, mask: masked ? randomMask() : nil)
    }
}
