// Choosing the member to sign in as: the id's rules, the default the `i` prompt offers, and the
// demo endpoint URL that asks for it.

import Foundation

/// What a member id to sign in as may be.
public enum MemberIdRules {
    /// The id `--user-id` gives when none is chosen (the embedded sandbox's presence identity).
    public static let fallback = "inspector"

    /// Why `id` cannot be a member id, or nil: 1–200 characters of `A-Z a-z 0-9 _ - = @ , . ;`
    /// (the sandbox's demo endpoint signs exactly those).
    public static func problem(_ id: String) -> String? {
        if id.isEmpty { return "member id is empty" }
        if id.count > 200 { return "member id longer than 200 characters" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-=@,.;")
        if let bad = id.first(where: { !allowed.contains($0) }) {
            return "member id may not contain “\(bad)” (allowed: A-Z a-z 0-9 _ - = @ , . ;)"
        }
        return nil
    }

    /// `url` asking the sandbox's demo endpoint for member `id`: its `member` query parameter set
    /// (added, or replacing the one there), every other part kept.
    public static func url(_ url: URL, member id: String) -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = (parts.queryItems ?? []).filter { $0.name != "member" }
        items.append(URLQueryItem(name: "member", value: id))
        parts.queryItems = items
        return parts.url ?? url
    }
}
