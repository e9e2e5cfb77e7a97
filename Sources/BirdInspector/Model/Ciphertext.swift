// End-to-end encrypted channels in the inspector: when the detail view can show what travelled.

extension Inspector {
    /// Why `c` in the detail view cannot show a ciphertext now, or nil when it can: only an event
    /// the client decrypted (on a `private-encrypted-` channel) has one.
    static func ciphertextProblem(_ model: Model) -> String? {
        guard case .detail(let seq, _, _) = model.mode else { return "no entry is open" }
        guard let entry = model.log.entry(seq: seq) else { return "this entry has left the log" }
        guard case .event(let event) = entry.event, event.ciphertext != nil else {
            return "not a decrypted event (only events on private-encrypted- channels travel encrypted)"
        }
        return nil
    }
}
