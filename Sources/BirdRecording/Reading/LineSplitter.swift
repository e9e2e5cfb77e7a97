// Cuts a recording's bytes into lines as they are read, with memory bounded by the longest line
// allowed — so a replay streams a file of any size. Bytes in, lines out; no I/O.

import Foundation

/// One line cut from a byte stream.
public enum SplitLine: Sendable, Equatable {
    /// A line that is not blank, as UTF-8 text (its LF, and a CR before it, removed).
    case text(number: Int, String)
    /// A line that cannot be read as text: not UTF-8 (a file cut inside a character, say) or
    /// longer than the limit.
    case unreadable(RecordingProblem)
}

/// Splits bytes into numbered lines (from 1, blank lines counted but not returned). Lines end at
/// LF only (a JSON string may hold other separators); a line over `maxLineBytes` is skipped
/// without being kept in memory.
public struct LineSplitter: Sendable {
    /// The longest line read; longer ones become `.unreadable`.
    public let maxLineBytes: Int
    private var pending: [UInt8] = []
    private var overlong = false
    /// Lines completed so far.
    public private(set) var lineCount = 0

    /// A splitter with a line limit.
    public init(maxLineBytes: Int = RecordingFormat.maxLineBytes) {
        self.maxLineBytes = max(1, maxLineBytes)
    }

    /// The lines the next bytes complete.
    public mutating func push(_ bytes: UnsafeRawBufferPointer) -> [SplitLine] {
        var out: [SplitLine] = []
        guard let base = bytes.baseAddress, bytes.count > 0 else { return out }
        var i = 0
        while i < bytes.count {
            let rest = bytes.count - i
            guard let hit = memchr(base + i, 0x0A, rest) else {
                keep(UnsafeRawBufferPointer(start: base + i, count: rest))
                break
            }
            let end = base.distance(to: UnsafeRawPointer(hit))
            keep(UnsafeRawBufferPointer(start: base + i, count: end - i))
            lineCount += 1
            if let line = complete() { out.append(line) }
            i = end + 1
        }
        return out
    }

    /// `push` over an array.
    public mutating func push(_ bytes: [UInt8]) -> [SplitLine] {
        bytes.withUnsafeBytes { push($0) }
    }

    /// The last line, when the bytes did not end with LF (a file cut short).
    public mutating func finish() -> [SplitLine] {
        guard overlong || !pending.isEmpty else { return [] }
        lineCount += 1
        return complete().map { [$0] } ?? []
    }

    private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
        guard !overlong, bytes.count > 0 else { return }
        if pending.count + bytes.count > maxLineBytes {
            overlong = true
            pending = []
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    private mutating func complete() -> SplitLine? {
        defer {
            pending.removeAll(keepingCapacity: pending.count <= 1 << 16)
            overlong = false
        }
        if overlong {
            return .unreadable(RecordingProblem(line: lineCount, kind: .tooLong(maxLineBytes)))
        }
        var count = pending.count
        if count > 0 && pending[count - 1] == 0x0D { count -= 1 }
        let bytes = pending[..<count]
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .unreadable(RecordingProblem(line: lineCount, kind: .notUTF8))
        }
        return .text(number: lineCount, text)
    }
}
