// A recording file read as a stream: read(2) in 256 KiB chunks through `LineSplitter` and
// `RecordingReader`, so memory does not grow with the file (docs/RECORDING.md) — the one file
// reader of `bird-inspect --replay`, `bird-inspect report` and `bird-sandbox --replay`.

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a recording file cannot be read (the caller puts the path in front).
public enum RecordingFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file at the path.
    case noSuchFile
    /// The path is a directory.
    case isDirectory
    /// The file cannot be opened; the system's reason.
    case cannotOpen(String)
    /// A read failed; the system's reason.
    case readFailed(String)
    /// The file is not a recording this program reads.
    case recording(RecordingError)

    /// One line for the user.
    public var description: String {
        switch self {
        case .noSuchFile: return "no such file"
        case .isDirectory: return "it is a directory"
        case .cannotOpen(let reason): return "the file cannot be read (\(reason))"
        case .readFailed(let reason): return "reading failed (\(reason))"
        case .recording(let error): return error.description
        }
    }
}

/// One pass over a recording file, item by item.
public final class RecordingFile {
    /// The path, for messages.
    public let path: String
    private let fd: Int32
    private var splitter: LineSplitter
    private var reader: RecordingReader
    private var ready: [SplitLine] = []
    private var next = 0
    private var atEnd = false
    private var chunk = [UInt8](repeating: 0, count: 256 * 1024)

    /// Opens `path` for a reader of `versions`.
    public init(path: String, versions: RecordingVersions, maxLineBytes: Int = RecordingFormat.maxLineBytes)
        throws(RecordingFileError)
    {
        self.path = path
        splitter = LineSplitter(maxLineBytes: maxLineBytes)
        reader = RecordingReader(versions: versions)
        var st = stat()
        guard stat(path, &st) == 0 else {
            throw errno == ENOENT ? .noSuchFile : .cannotOpen(String(cString: strerror(errno)))
        }
        guard (st.st_mode & S_IFMT) != S_IFDIR else { throw .isDirectory }
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
    }

    deinit { close(fd) }

    /// The recording's header, once the first item was read.
    public var header: RecordingHeader? { reader.header }

    /// The next item (the header first), nil at the end of the file. Throws when the first line is
    /// not a readable header of a version read (or there is none), or a read fails.
    public func nextItem() throws(RecordingFileError) -> RecordingItem? {
        while next >= ready.count {
            guard !atEnd else {
                do throws(RecordingError) { try reader.finish() } catch { throw .recording(error) }
                return nil
            }
            ready = try fill()
            next = 0
        }
        let line = ready[next]
        next += 1
        do throws(RecordingError) { return try reader.read(line) } catch { throw .recording(error) }
    }

    private func fill() throws(RecordingFileError) -> [SplitLine] {
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { return chunk.withUnsafeBytes { splitter.push(UnsafeRawBufferPointer(rebasing: $0[0..<n])) } }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw .readFailed(String(cString: strerror(errno))) }
            atEnd = true
            return splitter.finish()
        }
    }
}
