// stdout for --jsonl: write(2) with EINTR, partial writes and a non-blocking descriptor handled,
// and a reader that went away (EPIPE; SIGPIPE is ignored) reported instead of a crash — so
// `bird-inspect --jsonl … | head -1` ends cleanly.

import Foundation

/// Writes bytes to a file descriptor until they are all out, the reader has gone, or it fails.
final class OutputWriter {
    /// The descriptor written to.
    let fd: Int32
    /// Whether the reader closed its end (EPIPE): nothing more can be written.
    private(set) var closed = false
    /// The first other write error, if any.
    private(set) var failure: String?

    /// A writer for `fd` (stdout by default).
    init(fd: Int32 = STDOUT_FILENO) {
        self.fd = fd
    }

    /// Writes all of `bytes`; false when they could not all be written (reader gone or error).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
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
                    failure = "writing to stdout failed: \(String(cString: strerror(errno)))"
                    return false
                }
            }
            return true
        }
    }
}
