// JSON string literals: the package's one quoting routine (every JSON text it writes, the
// recording lines and the inspector's E lines included).

extension JSONWriter {
    /// Appends `s` as a JSON string literal: RFC 8259's escapes (`\"`, `\\`, `\n`, `\r`, `\t`,
    /// `\b`, `\f`, `\u00xx` in lowercase hex for the other control characters) and every other
    /// byte as it is (DEL, U+2028/U+2029 and all non-ASCII text included).
    static func appendQuoted(_ s: String, to out: inout String) {
        var text = s
        let escaped: String? = text.withUTF8 { bytes in
            let extra = escapeBytes(bytes)
            return extra == 0 ? nil : quoted(bytes, extra: extra)
        }
        if let escaped {
            out += escaped
        } else {
            out += "\""
            out += s
            out += "\""
        }
    }

    /// `s` as a JSON string literal (the escapes of ``appendQuoted(_:to:)``).
    static func quoted(_ s: String) -> String {
        var text = s
        return text.withUTF8 { bytes in quoted(bytes, extra: escapeBytes(bytes)) }
    }

    /// How many bytes the escapes of `bytes` add: one for a short escape, five for `\u00xx`.
    private static func escapeBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var extra = 0
        for b in bytes where b < 0x20 || b == 0x22 || b == 0x5C {
            switch b {
            case 0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x08, 0x0C: extra += 1
            default: extra += 5
            }
        }
        return extra
    }

    /// `bytes` (UTF-8) quoted and escaped, written in place into a string of its final size;
    /// `extra` is their ``escapeBytes(_:)``. Escapable bytes are ASCII, so the text stays valid.
    private static func quoted(_ bytes: UnsafeBufferPointer<UInt8>, extra: Int) -> String {
        String(unsafeUninitializedCapacity: bytes.count + extra + 2) { out in
            var i = 0
            func put(_ byte: UInt8) {
                out[i] = byte
                i += 1
            }
            put(0x22)
            for b in bytes {
                guard b < 0x20 || b == 0x22 || b == 0x5C else {
                    put(b)
                    continue
                }
                put(0x5C)
                switch b {
                case 0x22, 0x5C: put(b)
                case 0x0A: put(UInt8(ascii: "n"))
                case 0x0D: put(UInt8(ascii: "r"))
                case 0x09: put(UInt8(ascii: "t"))
                case 0x08: put(UInt8(ascii: "b"))
                case 0x0C: put(UInt8(ascii: "f"))
                default:
                    // A control byte (< 0x20): `\u00` and its two hex digits, lowercase.
                    let low = b & 0x0F
                    put(UInt8(ascii: "u"))
                    put(0x30)
                    put(0x30)
                    put(0x30 + (b >> 4))
                    put(low < 10 ? 0x30 + low : 0x57 + low)
                }
            }
            put(0x22)
            return i
        }
    }
}
