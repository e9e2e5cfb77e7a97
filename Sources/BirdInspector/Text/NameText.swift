// Names shortened to fit a column without losing what tells them apart: the start (the kind,
// `presence-`…) and the last part (`-emea`, `-apac`), with `…` between.

extension DisplayWidth {
    /// `name` in at most `width` columns: whole when it fits, else its start, `…` and its last
    /// part — from the last `-`, `_`, `.` or `:`, when that is at most half the width and leaves
    /// the start 7 columns (else the start and `…`) — so `presence-support-escalations-emea` reads `presence-sup…-emea`, never
    /// the same as its `-apac` sibling.
    public static func shorten(_ name: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(name) <= width { return name }
        if width < 6 { return truncate(name, to: width) }
        let chars = Array(name)
        let most = (width - 1) / 2
        guard let cut = chars.lastIndex(where: { "-_.:".contains($0) }), chars.count - cut <= most, cut > 0,
            width - (chars.count - cut) - 1 >= 7
        else {
            return truncate(name, to: width)
        }
        var tail = String(chars.suffix(chars.count - cut))
        while of(tail) > most, !tail.isEmpty { tail.removeFirst() }
        let head = truncate(name, to: width - of(tail), ellipsis: "…")
        return head + tail
    }
}
