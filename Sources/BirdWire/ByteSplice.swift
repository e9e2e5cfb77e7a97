/// A text rebuilt from its UTF-8 bytes with some ranges replaced, left to right: what the
/// redaction scanners build as they find secrets in free text.
struct ByteSplice {
    /// The original text's bytes.
    let bytes: [UInt8]
    private var out: [UInt8] = []
    private var copied = 0
    private var changed = false

    /// Starts from `bytes`, nothing replaced.
    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Replaces `range` (after every range replaced so far) with `replacement`.
    mutating func replace(_ range: Range<Int>, with replacement: String) {
        out.append(contentsOf: bytes[copied..<range.lowerBound])
        out.append(contentsOf: replacement.utf8)
        copied = range.upperBound
        changed = true
    }

    /// The text with the replacements made; `original` itself when there were none.
    func text(original: String) -> String {
        guard changed else { return original }
        return String(decoding: out + bytes[copied...], as: UTF8.self)
    }
}
