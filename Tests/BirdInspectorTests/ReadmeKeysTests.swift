// README's key list matches the binding table (issue 17: "README's key list matches the binding
// table"): every main-screen key the footer shows is in the list, and the list names no other.

import Foundation
import Testing

@testable import BirdInspector

@Suite("README key list")
struct ReadmeKeysTests {
    /// The keys README's inspector section lists after "The keys: " (each in backticks).
    static func listedKeys(_ readme: String) -> [String]? {
        guard let start = readme.range(of: "The keys: ") else { return nil }
        let rest = readme[start.upperBound...]
        let paragraph = rest.range(of: "\n\n").map { rest[..<$0.lowerBound] } ?? rest
        // Up to the list's end ("`q` quit."), so later backticks (flags) do not count.
        let list = paragraph.range(of: " quit.").map { paragraph[..<$0.upperBound] } ?? paragraph
        let parts = list.split(separator: "`", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) }
    }

    /// The main-screen keys the footer shows, by the name the footer uses.
    static var tableKeys: [String] {
        KeyBindings.scope(.main).filter(\.inFooter).compactMap { $0.keys.first?.name }
    }

    @Test("every footer key of the main screen is in README's list, and the list has no other")
    func matches() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let readme = try String(contentsOf: url, encoding: .utf8)
        let listed = try #require(Self.listedKeys(readme), "README.md has no “The keys: ” list")
        let table = Self.tableKeys
        #expect(!table.isEmpty)
        for key in table { #expect(listed.contains(key), "README's key list lacks `\(key)`") }
        for key in listed { #expect(table.contains(key), "README lists `\(key)`, which is not a main-screen key") }
        #expect(Set(listed).count == listed.count, "README lists a key twice: \(listed)")
    }

    @Test("the list reader finds backticked keys and stops at quit")
    func reader() {
        let text = "x\nThe keys: `s` sub · `i`/`o` in/out · `Enter` open · `q` quit. Also `--no-mouse`.\n\nnext"
        #expect(Self.listedKeys(text) == ["s", "i", "o", "Enter", "q"])
        #expect(Self.listedKeys("no list here") == nil)
    }
}
