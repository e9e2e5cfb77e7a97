// `--record FILE`: the single writer of a recording (docs/RECORDING.md). The main loop hands it
// every item it drains, in order; it stamps `mono_ms`, buffers the lines and writes them out on
// every loop turn (so at least every 100 ms) and at exit.

import BirdRecording
import BirdInspector
import Foundation

/// Writes one recording file.
final class Recorder {
    /// The file being written.
    let path: String
    /// When the recording started (monotonic and wall clock).
    let start: ContinuousClock.Instant
    let startDate: Date
    private var fd: Int32
    private var lastMono = 0.0
    private var buffer: [UInt8] = []
    /// Lines recorded so far (the header included).
    private(set) var lines = 0
    /// The first write error, reported at exit.
    private(set) var writeError: String?

    /// Creates (or truncates) `path`; throws a one-line reason when it cannot.
    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw SessionError("cannot open \(path) for recording: \(String(cString: strerror(errno)))")
        }
        start = ContinuousClock.now
        startDate = Date()
    }

    deinit { finish() }

    /// Writes the header (mono 0) at once and returns its line.
    @discardableResult
    func writeHeader(_ header: RecordingHeader) -> String {
        let line = RecordingWriter.header(header, at: startDate)
        append(line)
        flush()
        return line
    }

    /// Buffers one entry; returns its line (for `--jsonl`, which prints the same line).
    @discardableResult
    func record(_ entry: RecordedEntry, at time: Date, instant: ContinuousClock.Instant) -> String {
        let elapsed = instant - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        lastMono = max(lastMono, ms)
        let line = entry.line(at: time, monoMs: lastMono)
        append(line)
        return line
    }

    /// Writes what is buffered (the main loop calls this every turn).
    func flush() {
        guard !buffer.isEmpty, fd >= 0 else { return }
        var offset = 0
        buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 {
                    offset += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    if writeError == nil { writeError = "writing \(path) failed: \(String(cString: strerror(errno)))" }
                    return
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes the file.
    func finish() {
        flush()
        if fd >= 0 {
            _ = fsync(fd)
            _ = close(fd)
            fd = -1
        }
    }

    private func append(_ line: String) {
        lines += 1
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
    }
}
