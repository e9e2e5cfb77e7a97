// Display width of text in terminal columns: a wcwidth-like function in Swift, so the pure view
// can lay out wide (CJK, emoji) and zero-width (combining, format) characters exactly as the
// terminal will.

/// Terminal column widths of Unicode scalars and strings (East Asian Wide/Fullwidth take two
/// columns; combining marks, format characters and other zero-width scalars take none).
public enum DisplayWidth {
    /// Columns taken by one scalar: 0 (zero-width: combining, format, ZWJ), 1 or 2, or -1 for a
    /// control character that must not be written to a terminal.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v == 0 { return 0 }
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return -1 }
        if v < 0x300 { return 1 }
        if isZeroWidth(scalar) { return 0 }
        if isWide(v) { return 2 }
        return 1
    }

    /// Columns taken by a whole string, treating control characters as one column (the grid
    /// replaces them with a visible placeholder).
    public static func of(_ text: String) -> Int {
        var total = 0
        for scalar in text.unicodeScalars {
            let w = of(scalar)
            total += w < 0 ? 1 : w
        }
        return total
    }

    /// The longest prefix of `text` that fits in `width` columns; when the text is cut, the last
    /// column holds `ellipsis` (if given). A wide character is never cut in half.
    public static func truncate(_ text: String, to width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        let ellipsisWidth = of(ellipsis)
        let budget = max(0, width - ellipsisWidth)
        var used = 0
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            var w = of(scalar)
            if w < 0 { w = 1 }
            if used + w > budget { break }
            out.append(scalar)
            used += w
        }
        // Keep trailing zero-width scalars that belong to the last kept character.
        return String(out) + (ellipsisWidth <= width ? ellipsis : "")
    }

    /// `text` truncated or padded with spaces to exactly `width` columns.
    public static func pad(_ text: String, to width: Int) -> String {
        let cut = truncate(text, to: width)
        let w = of(cut)
        return w >= width ? cut : cut + String(repeating: " ", count: width - w)
    }

    /// Splits `text` into lines of at most `width` columns, breaking at spaces when possible and
    /// inside words otherwise; never splits a wide character.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for fullParagraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            // Keep leading indentation (pretty JSON) on the first and continuation lines.
            let indentCount = fullParagraph.prefix { $0 == " " }.count
            let indent = indentCount < width / 2 ? String(repeating: " ", count: indentCount) : ""
            let paragraph = fullParagraph.dropFirst(indent.count)
            let width = width - indent.count
            let start = lines.count
            defer { for i in start..<lines.count { lines[i] = indent + lines[i] } }
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                var piece = String(word)
                var pieceWidth = of(piece)
                let sep = line.isEmpty ? 0 : 1
                if lineWidth + sep + pieceWidth <= width {
                    if sep == 1 { line += " " }
                    line += piece
                    lineWidth += sep + pieceWidth
                    continue
                }
                if !line.isEmpty {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                while pieceWidth > width {
                    let head = truncate(piece, to: width, ellipsis: "")
                    if head.isEmpty { break }
                    lines.append(head)
                    piece = String(piece.unicodeScalars.dropFirst(head.unicodeScalars.count))
                    pieceWidth = of(piece)
                }
                line = piece
                lineWidth = pieceWidth
            }
            lines.append(line)
        }
        return lines
    }

    // MARK: - Tables

    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v >= 0x1160 && v <= 0x11FF { return true }  // Hangul Jamo medial vowels, final consonants
        if v == 0x200B { return true }  // zero width space
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    static func isWide(_ v: UInt32) -> Bool {
        if v < 0x1100 { return false }
        var lo = 0
        var hi = wideRanges.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let range = wideRanges[mid]
            if v < range.0 {
                hi = mid - 1
            } else if v > range.1 {
                lo = mid + 1
            } else {
                return true
            }
        }
        return false
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges, Unicode 15, sorted.
    static let wideRanges: [(UInt32, UInt32)] = [
        (0x1100, 0x115F), (0x231A, 0x231B), (0x2329, 0x232A), (0x23E9, 0x23EC), (0x23F0, 0x23F0),
        (0x23F3, 0x23F3), (0x25FD, 0x25FE), (0x2614, 0x2615), (0x2648, 0x2653), (0x267F, 0x267F),
        (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE), (0x26C4, 0x26C5),
        (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA), (0x26F2, 0x26F3), (0x26F5, 0x26F5),
        (0x26FA, 0x26FA), (0x26FD, 0x26FD), (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728),
        (0x274C, 0x274C), (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797),
        (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50), (0x2B55, 0x2B55),
        (0x2E80, 0x2E99), (0x2E9B, 0x2EF3), (0x2F00, 0x2FD5), (0x2FF0, 0x2FFB), (0x3000, 0x303E),
        (0x3041, 0x3096), (0x3099, 0x30FF), (0x3105, 0x312F), (0x3131, 0x318E), (0x3190, 0x31E3),
        (0x31F0, 0x321E), (0x3220, 0x3247), (0x3250, 0x4DBF), (0x4E00, 0xA48C), (0xA490, 0xA4C6),
        (0xA960, 0xA97C), (0xAC00, 0xD7A3), (0xF900, 0xFAFF), (0xFE10, 0xFE19), (0xFE30, 0xFE52),
        (0xFE54, 0xFE66), (0xFE68, 0xFE6B), (0xFF01, 0xFF60), (0xFFE0, 0xFFE6),
        (0x16FE0, 0x16FE4), (0x16FF0, 0x16FF1), (0x17000, 0x187F7), (0x18800, 0x18CD5),
        (0x18D00, 0x18D08), (0x1AFF0, 0x1AFF3), (0x1AFF5, 0x1AFFB), (0x1AFFD, 0x1AFFE),
        (0x1B000, 0x1B122), (0x1B132, 0x1B132), (0x1B150, 0x1B152), (0x1B155, 0x1B155),
        (0x1B164, 0x1B167), (0x1B170, 0x1B2FB), (0x1F004, 0x1F004), (0x1F0CF, 0x1F0CF),
        (0x1F18E, 0x1F18E), (0x1F191, 0x1F19A), (0x1F200, 0x1F202), (0x1F210, 0x1F23B),
        (0x1F240, 0x1F248), (0x1F250, 0x1F251), (0x1F260, 0x1F265), (0x1F300, 0x1F320),
        (0x1F32D, 0x1F335), (0x1F337, 0x1F37C), (0x1F37E, 0x1F393), (0x1F3A0, 0x1F3CA),
        (0x1F3CF, 0x1F3D3), (0x1F3E0, 0x1F3F0), (0x1F3F4, 0x1F3F4), (0x1F3F8, 0x1F43E),
        (0x1F440, 0x1F440), (0x1F442, 0x1F4FC), (0x1F4FF, 0x1F53D), (0x1F54B, 0x1F54E),
        (0x1F550, 0x1F567), (0x1F57A, 0x1F57A), (0x1F595, 0x1F596), (0x1F5A4, 0x1F5A4),
        (0x1F5FB, 0x1F64F), (0x1F680, 0x1F6C5), (0x1F6CC, 0x1F6CC), (0x1F6D0, 0x1F6D2),
        (0x1F6D5, 0x1F6D7), (0x1F6DC, 0x1F6DF), (0x1F6EB, 0x1F6EC), (0x1F6F4, 0x1F6FC),
        (0x1F7E0, 0x1F7EB), (0x1F7F0, 0x1F7F0), (0x1F90C, 0x1F93A), (0x1F93C, 0x1F945),
        (0x1F947, 0x1F9FF), (0x1FA70, 0x1FA7C), (0x1FA80, 0x1FA88), (0x1FA90, 0x1FABD),
        (0x1FABF, 0x1FAC5), (0x1FACE, 0x1FADB), (0x1FAE0, 0x1FAE8), (0x1FAF0, 0x1FAF8),
        (0x20000, 0x2FFFD), (0x30000, 0x3FFFD),
    ]
}
