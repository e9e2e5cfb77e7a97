// stdout and stderr for the command-line tools: write(2) with EINTR, partial writes and a
// non-blocking descriptor handled, and a reader that went away (EPIPE; SIGPIPE is ignored) reported
// instead of a crash — so `bird-inspect --jsonl … | head -1` or `bird-inspect report … | head`
// end cleanly. (Foundation's `FileHandle.write(_: Data)` traps on EPIPE.)

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes bytes to a file descriptor until they are all out, the reader has gone, or it fails.
public final class OutputWriter {
    /// The descriptor written to.
    public let fd: Int32
    /// Whether the reader closed its end (EPIPE): nothing more can be written.
    public private(set) var closed = false
    /// The first other write error, if any.
    public private(set) var failure: String?

    /// A writer for `fd` (stdout by default).
    public init(fd: Int32 = STDOUT_FILENO) {
        self.fd = fd
    }

    /// `stdout`, `stderr` or `descriptor N`, for messages.
    private var name: String {
        switch fd {
        case STDOUT_FILENO: "stdout"
        case STDERR_FILENO: "stderr"
        default: "descriptor \(fd)"
        }
    }

    /// Writes all of `bytes`; false when they could not all be written (reader gone or error).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard !closed, failure == nil else { return false }
        return bytes.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, base + offset, raw.count - offset)
                if n > 0 {
                    offset += n
                    continue
                }
                switch n < 0 ? errno : 0 {
                case EINTR:
                    continue
                case EAGAIN:
                    // stdout shares a non-blocking file description with stdin (a terminal):
                    // wait until it can take more.
                    var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&p, 1, 100)
                case EPIPE:
                    closed = true
                    return false
                default:
                    failure = "writing to \(name) failed: \(String(cString: strerror(errno)))"
                    return false
                }
            }
            return true
        }
    }
}

/// One-shot writes to stdout and stderr for the command-line tools (a line, a report, a page).
public enum StandardStreams {
    /// Writes `text` to stdout, all of it. A reader that went away (`| head`) ends the program
    /// with status 0, as it would a pipeline; any other failure (a full disk) is said on stderr and
    /// ends it with status 1 — instead of Foundation's trap.
    public static func out(_ text: String) {
        let writer = OutputWriter(fd: STDOUT_FILENO)
        if writer.write(Array(text.utf8)) { return }
        if let failure = writer.failure {
            err("\(failure)\n")
            exit(1)
        }
        exit(0)
    }

    /// Writes `text` to stderr; a failure is ignored (there is nowhere left to say it).
    public static func err(_ text: String) {
        OutputWriter(fd: STDERR_FILENO).write(Array(text.utf8))
    }
}
