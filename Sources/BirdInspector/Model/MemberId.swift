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

    /// `ID [INFO]` as typed after `signin` or in the `i` prompt: the id, and the member info (a
    /// JSON object, at most 1 KB) when given.
    public static func parse(_ text: String) -> Result<(id: String, info: String?), CommandTextError> {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1).map(String.init)
        guard let id = parts.first else { return .failure(.init("usage: signin [ID [INFO]]")) }
        if let problem = problem(id) { return .failure(.init("signin \(id): \(problem)")) }
        guard parts.count == 2 else { return .success((id, nil)) }
        let info = parts[1].trimmingCharacters(in: .whitespaces)
        guard info.hasPrefix("{"), PayloadText.isJSON(info) else {
            return .failure(.init("signin \(id): INFO must be a JSON object, e.g. {\"name\":\"Carol\"}"))
        }
        if info.utf8.count > 1024 { return .failure(.init("signin \(id): INFO is larger than 1 KB")) }
        return .success((id, info))
    }

    /// `url` asking the sandbox's demo endpoint for member `id` (and member info `info`, a JSON
    /// object's text): its `member` (and `info`) query parameters set, replacing any there, every
    /// other part kept.
    public static func url(_ url: URL, member id: String, info: String? = nil) -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = (parts.queryItems ?? []).filter { $0.name != "member" && $0.name != "info" }
        items.append(URLQueryItem(name: "member", value: id))
        if let info { items.append(URLQueryItem(name: "info", value: info)) }
        parts.queryItems = items
        return parts.url ?? url
    }
}
