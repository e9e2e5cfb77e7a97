// The one file reader: a recording streamed from disk reads exactly as the same bytes at once.

import Foundation
import Testing

@testable import BirdRecording

@Suite("Recordings: files")
struct RecordingFileTests {
    func temporary(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID().uuidString).jsonl").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a file larger than a read chunk streams to the same items as reading its bytes at once")
    func streamsLikeWhole() throws {
        var text = header + "\n"
        for i in 0..<20_000 { text += #"{"mono_ms":\#(i),"type":"event","channel":"c","data":{"i":\#(i)}}"# + "\n" }
        text += "broken\n"
        let bytes = Array(text.utf8)
        #expect(bytes.count > 256 * 1024 * 2)
        let path = try temporary(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try RecordingFile(path: path, versions: inspector)
        var lines: [RecordingLine] = []
        var problems: [RecordingProblem] = []
        var headers = 0
        while let item = try file.nextItem() {
            switch item {
            case .header: headers += 1
            case .line(let line): lines.append(line)
            case .problem(let problem): problems.append(problem)
            }
        }
        let whole = try Recording.read(bytes: bytes, versions: inspector)
        #expect(headers == 1 && file.header == whole.header)
        #expect(lines == whole.lines && problems == whole.problems && lines.count == 20_000)
    }

    @Test("file errors: no such file, a directory, not a recording")
    func errors() throws {
        #expect(throws: RecordingFileError.noSuchFile) {
            try RecordingFile(path: "/nonexistent/r.jsonl", versions: inspector)
        }
        #expect(throws: RecordingFileError.isDirectory) {
            try RecordingFile(path: FileManager.default.temporaryDirectory.path, versions: inspector)
        }
        let path = try temporary(Array("hello\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try RecordingFile(path: path, versions: inspector)
        #expect(throws: RecordingFileError.recording(.notARecording("the first line is not a JSON object"))) {
            _ = try file.nextItem()
        }
        let empty = try temporary([])
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(throws: RecordingFileError.recording(.empty)) {
            _ = try RecordingFile(path: empty, versions: inspector).nextItem()
        }
        #expect(RecordingFileError.noSuchFile.description == "no such file")
    }
}
