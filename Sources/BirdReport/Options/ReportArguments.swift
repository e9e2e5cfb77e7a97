import BirdCommandLine

/// What `bird-inspect report …` asks for.
public enum ReportCommand: Sendable, Equatable {
    /// Write the report.
    case run(ReportOptions)
    /// `--help`.
    case help
}

/// The flags of `bird-inspect report`.
public struct ReportOptions: Sendable, Equatable {
    /// The recording to read.
    public var recording: String
    /// Where to write the page; `-` is stdout.
    public var output: String
    /// Replace an existing output file.
    public var force: Bool

    /// Options.
    public init(recording: String, output: String, force: Bool = false) {
        self.recording = recording
        self.output = output
        self.force = force
    }

    /// Whether the page goes to stdout.
    public var toStdout: Bool { output == "-" }
}

/// A bad flag or value of `bird-inspect report`: one line for the user.
public typealias ReportArgumentError = CommandLineError

/// The parser of `bird-inspect report`'s flags (pure).
public enum ReportArguments {
    /// The help text of `bird-inspect report --help`.
    public static let usage = """
        usage: bird-inspect report RECORDING -o FILE|- [--force]

        Turns a recording (bird-inspect --record FILE) into one self-contained HTML page: a summary,
        the connection's states on a timeline with close codes, retries and their waits, per-channel
        event rates and gaps, auth requests, errors, and the commands that replay the session
        (naming the built-in scenario it looks like). No scripts, nothing fetched; secrets stay redacted.

          -o, --output FILE         where to write the page; - writes it to stdout
          -f, --force               replace FILE when it exists (without it an existing file is kept)

        Exit status: 0 written · 1 the recording cannot be read or the page cannot be written ·
                     2 bad flags. See docs/REPORT.md.
        """

    /// Parses the arguments after `report`.
    public static func parse(_ args: [String]) -> Result<ReportCommand, ReportArgumentError> {
        var recording: String?
        var output: String?
        var force = false
        var onlyOperands = false
        var reader = ArgumentReader(args)
        do throws(ReportArgumentError) {
            while reader.next() {
                let arg = reader.argument
                if !onlyOperands, arg.hasPrefix("-"), arg != "-" {
                    let flag = reader.flag
                    switch flag {
                    case "-h", "--help":
                        return .success(.help)
                    case "--":
                        onlyOperands = true
                    case "-o", "--output":
                        guard output == nil else { throw ReportArgumentError("\(flag) given twice") }
                        let value = try reader.value { _ in
                            ReportArgumentError("\(flag) needs a value (a file, or - for stdout)")
                        }
                        guard !value.isEmpty else {
                            throw ReportArgumentError("\(flag) needs a value (a file, or - for stdout)")
                        }
                        output = value
                    case "-f", "--force":
                        try reader.noValue(ReportArgumentError.init)
                        force = true
                    default:
                        throw ReportArgumentError("unknown flag \(flag)")
                    }
                    continue
                }
                guard recording == nil else { throw ReportArgumentError("one recording at a time (got \(arg) too)") }
                guard !arg.isEmpty else { throw ReportArgumentError("the recording's path is empty") }
                recording = arg
            }
            guard let recording else {
                throw ReportArgumentError("which recording? (bird-inspect report RECORDING -o FILE)")
            }
            guard let output else { throw ReportArgumentError("-o FILE is required (-o - writes the page to stdout)") }
            guard recording != "-" else { throw ReportArgumentError("the recording must be a file, not stdin") }
            guard output == "-" || !samePath(output, recording) else {
                throw ReportArgumentError("-o \(output) would overwrite the recording")
            }
            return .success(.run(ReportOptions(recording: recording, output: output, force: force)))
        } catch {
            return .failure(error)
        }
    }

    /// Whether two paths name the same file as spelled (`./a` and `a`; symlinks are the
    /// command's to check).
    static func samePath(_ a: String, _ b: String) -> Bool {
        func normal(_ p: String) -> [Substring] {
            p.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        }
        return a.hasPrefix("/") == b.hasPrefix("/") && normal(a) == normal(b)
    }
}
