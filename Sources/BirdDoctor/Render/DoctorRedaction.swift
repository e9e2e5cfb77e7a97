import BirdWire

/// The last pass over rendered output: nothing secret leaves the doctor, whatever a step put
/// in its text. Auth values, header values, tokens and the known secret are replaced
/// (BirdWire's ``Redaction``), and so is anything shaped like a signature (`:` + 64 hex digits).
enum DoctorRedaction {
    static func scrub(_ text: String, secrets: [String]) -> String {
        signatures(Redaction.redact(Redaction.redactWireText(text), secrets: secrets))
    }

    /// Replaces every `:` followed by exactly 64 hex digits.
    static func signatures(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count > 64 else { return text }
        var out = String.UnicodeScalarView()
        var i = 0
        var changed = false
        while i < scalars.count {
            if scalars[i] == ":" {
                var j = i + 1
                while j < scalars.count, j - i <= 65, isHex(scalars[j]) { j += 1 }
                if j - i - 1 == 64 {
                    out.append(":")
                    out.append(contentsOf: Redaction.placeholder.unicodeScalars)
                    i = j
                    changed = true
                    continue
                }
            }
            out.append(scalars[i])
            i += 1
        }
        return changed ? String(out) : text
    }

    private static func isHex(_ s: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(s) || ("a"..."f").contains(s) || ("A"..."F").contains(s)
    }
}
