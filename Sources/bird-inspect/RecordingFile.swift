// A recording read as a stream: read(2) in 256 KiB chunks through `LineSplitter` and
// `RecordingReader`, so memory does not grow with the file (docs/RECORDING.md).

import BirdInspector
import Foundation

/// One pass over a recording file, item by item.
final class RecordingFile {
    /// The path, for messages.
    let path: String
    private let fd: Int32
    private var splitter = LineSplitter()
    private var reader = RecordingReader()
    private var ready: [SplitLine] = []
    private var next = 0
    private var atEnd = false
    private var chunk = [UInt8](repeating: 0, count: 256 * 1024)

    /// Opens `path`; the error is one line for the user.
    init(path: String) throws {
        self.path = path
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw SessionError(errno == ENOENT ? "cannot replay \(path): no such file"
                               : "cannot replay \(path): \(String(cString: strerror(errno)))")
        }
        guard (st.st_mode & S_IFMT) != S_IFDIR else { throw SessionError("cannot replay \(path): it is a directory") }
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SessionError("cannot replay \(path): the file cannot be read (\(String(cString: strerror(errno))))") }
    }

    deinit { close(fd) }

    /// The recording's header (the first item); throws when the file is not a recording.
    var header: TranscriptHeader? { reader.header }
    /// The header's `ts`.
    var startedAt: Date { reader.startedAt }

    /// The next item, nil at the end of the file. Throws `TranscriptError` when the first line is
    /// not a readable header (or there is none), or a read fails.
    func nextItem() throws -> RecordingItem? {
        while next >= ready.count {
            guard !atEnd else {
                try reader.finish()
                return nil
            }
            ready = try fill()
            next = 0
        }
        let line = ready[next]
        next += 1
        return try reader.read(line)
    }

    private func fill() throws -> [SplitLine] {
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { return chunk.withUnsafeBytes { splitter.push(UnsafeRawBufferPointer(rebasing: $0[0..<n])) } }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw SessionError("cannot replay \(path): reading failed (\(String(cString: strerror(errno))))") }
            atEnd = true
            return splitter.finish()
        }
    }
}
