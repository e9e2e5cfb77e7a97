import Foundation
import Testing

/// Raw rtnetlink datagrams recorded on a real kernel by `bird-netcheck record` (the files in
/// `NetlinkRecordings/`: data, not code — regenerate them rather than edit them).
///
/// A file holds `#` comments, `portId N` (the recording socket's port id, which dump replies
/// carry in `nlmsg_pid`), and named sections: `[name]` on a line of its own, then one datagram
/// per line in lower-case hex. Sections are read as members: `Recordings.host.linksDump`.
@dynamicMemberLookup
struct NetlinkRecording: Sendable {
    /// The recording socket's port id.
    let portId: UInt32
    private let sections: [String: [[UInt8]]]

    /// The datagrams of section `name`; a missing section is a test failure (and no datagrams).
    subscript(dynamicMember name: String) -> [[UInt8]] {
        guard let datagrams = sections[name] else {
            Issue.record("the netlink recording has no section '\(name)'")
            return []
        }
        return datagrams
    }

    /// Reads `NetlinkRecordings/NAME.txt` beside this file; a missing or malformed file is a test
    /// failure (and an empty recording).
    init(named name: String) {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("NetlinkRecordings/\(name).txt")
        do {
            (portId, sections) = try Self.parse(String(contentsOf: url, encoding: .utf8))
        } catch {
            Issue.record("cannot read the netlink recording \(url.path): \(error)")
            (portId, sections) = (0, [:])
        }
    }

    /// Where a recording file breaks the format.
    struct FormatError: Error, CustomStringConvertible {
        let line: Int
        let problem: String
        var description: String { "line \(line): \(problem)" }
    }

    /// The port id and sections of a recording file's text.
    static func parse(_ text: String) throws -> (UInt32, [String: [[UInt8]]]) {
        var portId: UInt32?
        var sections: [String: [[UInt8]]] = [:]
        var current: String?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("portId ") {
                portId = UInt32(line.dropFirst("portId ".count))
                if portId == nil { throw FormatError(line: index + 1, problem: "bad port id") }
            } else if line.hasPrefix("["), line.hasSuffix("]"), line.count > 2 {
                let name = String(line.dropFirst().dropLast())
                current = name
                sections[name] = []
            } else if let bytes = hexBytes(line) {
                guard let name = current else {
                    throw FormatError(line: index + 1, problem: "datagram before a section")
                }
                sections[name, default: []].append(bytes)
            } else {
                throw FormatError(line: index + 1, problem: "neither a section name nor hex bytes")
            }
        }
        guard let portId else { throw FormatError(line: 0, problem: "no portId line") }
        return (portId, sections)
    }

    /// `line` as bytes if it is an even number of lower-case hex digits.
    private static func hexBytes(_ line: Substring) -> [UInt8]? {
        let digits = Array(line.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for pair in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[pair]), let low = nibble(digits[pair + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}

/// The recordings the netlink tests read.
enum Recordings {
    /// A host with `eth0`, IPv4 and IPv6 defaults: the links, addresses and routes dumps.
    static let host = NetlinkRecording(named: "host")
    /// A fresh network namespace: its dumps and what each `ip` change emitted.
    static let namespace = NetlinkRecording(named: "namespace")
}
