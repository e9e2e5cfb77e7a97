import Foundation

/// Runs one of this package's executables (built with the tests) to the end, with the
/// environment's `BIRD_*` variables removed so the machine's settings cannot leak in.
public enum BuiltTool {
    /// What a run gave.
    public struct Run: Sendable {
        /// The exit status.
        public var status: Int32
        /// Everything written to standard output.
        public var stdout: String
        /// Everything written to standard error.
        public var stderr: String
    }

    /// The executable was not built.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `name` with `arguments`; `environment` is added to the caller's (without `BIRD_*`).
    /// Throws ``Missing`` when the executable was not built.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> Run
    {
        guard let tool = PackagePaths.builtTool(name) else {
            throw Missing(description: "\(name) is missing: build the package (swift build --build-tests) first")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("BIRD_") }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let (stdout, stderr) = PipeDrain.readToEnd(stdout: out, stderr: err)
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
