import Foundation

/// Where the package and its built tools are, for tests that run them.
public enum PackagePaths {
    /// The package root (the folder holding `Package.swift`), derived from this file's path.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// An executable of this package built with the tests: beside the test bundle, else in
    /// `.build/debug`; nil when it was not built.
    public static func builtTool(_ name: String) -> String? {
        let running =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let candidates = [
            URL(fileURLWithPath: running).deletingLastPathComponent().appendingPathComponent(name).path,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
                .path,
            root.appendingPathComponent(".build/debug/\(name)").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
