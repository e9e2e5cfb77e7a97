import BirdWire

/// The last pass over every free text the report shows (causes, messages, labels, endpoints):
/// recordings are redacted when written, and the report adds nothing, but a recording from an
/// older or foreign writer may not be. Auth values (BirdWire's ``Redaction``), anything shaped
/// like a signature (`:` and 64 hex digits), bearer tokens and URL query strings are replaced.
public enum ReportRedaction {
    /// What a removed secret shows as.
    public static let placeholder = Redaction.placeholder

    /// `text` with secrets replaced.
    public static func scrub(_ text: String) -> String {
        queries(bearers(signatures(Redaction.redactWireText(text))))
    }

    /// An endpoint as the report shows it: scheme, host, port and path (no user info, query or
    /// fragment), then scrubbed.
    public static func endpoint(_ url: String) -> String {
        var text = Substring(url)
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<cut] }
        if let scheme = text.range(of: "://") {
            let authorityStart = scheme.upperBound
            let authorityEnd = text[authorityStart...].firstIndex(of: "/") ?? text.endIndex
            if let at = text[authorityStart..<authorityEnd].lastIndex(of: "@") {
                text = text[..<authorityStart] + text[text.index(after: at)...]
            }
        }
        return scrub(String(text))
    }

    /// Replaces every `:` followed by exactly 64 hex digits.
    static func signatures(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count > 64 else { return text }
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            if scalars[i] == ":" {
                var j = i + 1
                while j < scalars.count, j - i <= 65, isHex(scalars[j]) { j += 1 }
                if j - i - 1 == 64 {
                    out.append(":")
                    out.append(contentsOf: placeholder.unicodeScalars)
                    i = j
                    continue
                }
            }
            out.append(scalars[i])
            i += 1
        }
        return String(out)
    }

    /// `Bearer <token>` → `Bearer <redacted>` (any case).
    static func bearers(_ text: String) -> String {
        replaceWord(after: "bearer ", in: text)
    }

    /// The query string of every URL in free text (`…?a=b` up to the next space) is dropped.
    static func queries(_ text: String) -> String {
        guard text.contains("://"), text.contains("?") else { return text }
        var out = ""
        var inURL = false
        var skipping = false
        var word = ""
        for ch in text {
            if ch == " " || ch == "\n" || ch == "\t" || ch == ")" || ch == "\"" {
                inURL = false
                skipping = false
                word = ""
                out.append(ch)
                continue
            }
            word.append(ch)
            if !inURL, word.hasSuffix("://") { inURL = true }
            if inURL, ch == "?" { skipping = true }
            if !skipping { out.append(ch) }
        }
        return out
    }

    private static func replaceWord(after marker: String, in text: String) -> String {
        guard text.lowercased().contains(marker) else { return text }
        let chars = Array(text)
        let markerChars = Array(marker)
        func matches(at i: Int) -> Bool {
            guard i + markerChars.count <= chars.count else { return false }
            for k in markerChars.indices where chars[i + k].lowercased() != String(markerChars[k]) { return false }
            return true
        }
        var out = ""
        var i = 0
        while i < chars.count {
            if matches(at: i) {
                out += String(chars[i..<(i + markerChars.count)])
                i += markerChars.count
                var j = i
                while j < chars.count, !chars[j].isWhitespace, chars[j] != "\"", chars[j] != "," { j += 1 }
                if j > i { out += placeholder }
                i = j
                continue
            }
            out.append(chars[i])
            i += 1
        }
        return out
    }

    private static func isHex(_ s: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(s) || ("a"..."f").contains(s) || ("A"..."F").contains(s)
    }
}
