// docs/RECORDING.md: the lines a recording is made of, as written, and the `ts` splice of
// `--jsonl --replay`.

import BirdWire
import Foundation
import Testing
import TestSupport

@testable import BirdRecording

let t0 = Date(timeIntervalSince1970: 1_700_000_000)

@Suite("Recordings: lines written")
struct RecordingWriterTests {
    @Test("header: first keys ts, mono_ms, type; version 1; settings; read back the same")
    func header() throws {
        let h = RecordingHeader(
            tool: "bird-inspect 0.1.0", dialect: "bird", host: "127.0.0.1", port: 41234, tls: false,
            appKey: "sandbox-key", channels: ["public-demo"])
        let line = RecordingWriter.header(h, at: t0)
        #expect(
            line
                == #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":0.000,"type":"recording","version":1,"tool":"bird-inspect 0.1.0","dialect":"bird","host":"127.0.0.1","port":41234,"tls":false,"app_key":"sandbox-key","channels":["public-demo"]}"#
        )
        let read = try RecordingReader.header(line, versions: RecordingVersions(reader: "test"))
        var expected = h
        expected.timestamp = "2023-11-14T22:13:20.000Z"
        #expect(read == expected)
        #expect(read.startedAt.map(RecordingTime.iso) == "2023-11-14T22:13:20.000Z")
    }

    @Test("mono_ms has three decimals and never goes negative")
    func mono() {
        #expect(RecordingFormat.monoText(0) == "0.000")
        #expect(RecordingFormat.monoText(12.3456) == "12.346")
        #expect(RecordingFormat.monoText(1234567.0004) == "1234567.000")
        #expect(RecordingFormat.monoText(-5) == "0.000")
        #expect(RecordingFormat.monoText(.nan) == "0.000")
        #expect(RecordingFormat.monoText(1e300) == "9000000000000.000")
    }

    @Test("ts and mono_ms written in place read the same as the plain formulas, for any date and time")
    func stampsInPlace() {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        // The plain formulas (Howard Hinnant's civil date), the text every recording so far has.
        func iso(_ date: Date) -> String {
            let ms = Checked.int(date.timeIntervalSince1970 * 1000, .down)
            var days = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
            let dayMs = ms - days * 86_400_000
            days += 719_468
            let era = (days >= 0 ? days : days - 146_096) / 146_097
            let doe = days - era * 146_097
            let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
            let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
            let mp = (5 * doy + 2) / 153
            let d = doy - (153 * mp + 2) / 5 + 1
            let m = mp < 10 ? mp + 3 : mp - 9
            let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
            let h = dayMs / 3_600_000, mi = dayMs / 60_000 % 60, s = dayMs / 1000 % 60, f = dayMs % 1000
            return "\(y)-\(two(m))-\(two(d))T\(two(h)):\(two(mi)):\(two(s)).\(f < 10 ? "00" : f < 100 ? "0" : "")\(f)Z"
        }
        func mono(_ ms: Double) -> String {
            let micro = ms.isFinite ? max(0, Checked.int(ms * 1000)) : 0
            let frac = micro % 1000
            return "\(micro / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
        }
        var random = SplitMix64(seed: 19)
        var dates = [
            -62_135_596_800.0, -1, 0, 0.0009, 951_782_400, 1_700_000_000.999, 253_402_300_799.999, 1e13, -1e13,
        ]
        for _ in 0..<2000 { dates.append(Double(random.next() % 400_000_000_000) / 100 - 1_000_000_000) }
        for seconds in dates {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(RecordingTime.iso(date) == iso(date), "\(seconds)")
        }
        var times = [
            0, 0.0004, 0.0005, 0.001, 0.999, 1, 9.9999, 10, 99.5, 1e6, 1e12, 9.2e15, 1e300, -0.0, -5, .nan, .infinity,
        ]
        for _ in 0..<2000 { times.append(Double(random.next() % 10_000_000_000) / 1000) }
        for ms in times { #expect(RecordingFormat.monoText(ms) == mono(ms), "\(ms)") }
    }

    @Test("a wire line's text is quoted byte for byte as the plain reference quotes it: every escape, any UTF-8")
    func wireQuoting() {
        var random = SplitMix64(seed: 7)
        var texts = [
            "", #"{"event":"tick","channel":"flood","data":{"seq":1,"text":"a "quoted" word"}}"#,
            "tab\tnew\nline\r\u{08}\u{0C}\u{00}\u{1F}\u{7F} back\\slash", "ünïcødé 🐦 \"x\"",
            "\u{2028}\u{2029}\r\n e\u{301}",
        ]
        let alphabet = Array("ab\"\\\n\r\t\u{08}\u{0C}\u{01}\u{1B}\u{1F}\u{7F}\u{2028}é🐦{}:,")
        for _ in 0..<300 {
            let n = Int(random.next() % 40)
            texts.append(String((0..<n).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }))
        }
        for text in texts {
            #expect(RecordingWriter.quoted(text) == referenceQuoted(text), "\(text.debugDescription)")
            let line = RecordingWriter.wire(direction: .inbound, text: text, at: t0, monoMs: 1)
            #expect(line.hasSuffix(",\"text\":" + referenceQuoted(Redaction.scrub(text, urls: .keep)) + "}"))
        }
    }

    @Test("wire and auth entries")
    func entries() {
        let wire = RecordingWriter.wire(
            direction: .inbound, text: #"{"event":"bird:ping","data":{}}"#, at: t0, monoMs: 5)
        #expect(
            wire
                == #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":5.000,"type":"wire","direction":"in","text":"{\"event\":\"bird:ping\",\"data\":{}}"}"#
        )
        let out = RecordingWriter.wire(direction: .outbound, text: "x", at: t0, monoMs: 1)
        #expect(out.contains(#""direction":"out""#))
        let auth = RecordingWriter.auth(
            AuthRecord(kind: .channel, endpoint: "http://h/auth", channel: "private-x", status: 200, ms: 4),
            at: t0, monoMs: 7.25)
        #expect(
            auth
                == #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":7.250,"type":"auth","kind":"channel","endpoint":"http://h/auth","channel":"private-x","status":200,"ms":4}"#
        )
        let failed = RecordingWriter.auth(
            AuthRecord(kind: .signin, endpoint: "https://h/member", error: "timed out", ms: 5000),
            at: t0, monoMs: 9)
        #expect(
            failed.hasSuffix(
                #""type":"auth","kind":"signin","endpoint":"https://h/member","error":"timed out","ms":5000}"#))
        #expect(
            RecordingWriter.head(at: t0, monoMs: 3, type: "subscribed")
                == #"{"ts":"2023-11-14T22:13:20.000Z","mono_ms":3.000,"type":"subscribed""#)
    }

    @Test(
        "secrets: the redaction policy runs over wire text and errors; the library's redaction is kept; URLs in data stay"
    )
    func wireSecrets() {
        let hex = String(repeating: "0123456789abcdef", count: 4)
        let leaked = RecordingWriter.wire(direction: .outbound, text: #"{"auth":"k:\#(hex)"}"#, at: t0, monoMs: 0)
        #expect(!leaked.contains(hex))
        let redacted = RecordingWriter.wire(direction: .outbound, text: #"{"auth":"k:<redacted>"}"#, at: t0, monoMs: 0)
        #expect(redacted.contains(#"k:<redacted>"#))
        let keyed = RecordingWriter.wire(
            direction: .inbound, text: #"{"data":"{\"shared_secret\":\"c2Vj\",\"u\":\"https://x/y?page=2\"}"}"#,
            at: t0, monoMs: 0)
        #expect(!keyed.contains("c2Vj") && keyed.contains("page=2"))
        let err = RecordingWriter.auth(
            AuthRecord(
                kind: .channel, endpoint: "e", error: #"got {"auth":"k:\#(hex)"} from https://h/a?token=t"#, ms: 1),
            at: t0, monoMs: 0)
        #expect(!err.contains(hex) && !err.contains("token=t"))
        let endpoint = RecordingWriter.auth(
            AuthRecord(kind: .channel, endpoint: "https://h/a?token=t", ms: 1), at: t0, monoMs: 0)
        #expect(endpoint.contains(#""endpoint":"https://h/a","#))
    }

    @Test("auth requests: kind by endpoint, channel from a JSON or form body, no query string or user info")
    func authDescribe() throws {
        let channelURL = try #require(URL(string: "http://127.0.0.1:9/auth?member=inspector&token=SECRET"))
        let signinURL = try #require(URL(string: "http://127.0.0.1:9/auth/member?member=inspector"))
        let json = Array(#"{"connection_id":"1.2","channel_name":"private-demo"}"#.utf8)
        let a = AuthRecord.describe(url: channelURL, body: json, channelEndpoint: channelURL, signinEndpoint: signinURL)
        #expect(a.kind == .channel && a.channel == "private-demo" && a.endpoint == "http://127.0.0.1:9/auth")
        let form = Array("socket_id=1.2&channel_name=presence-a%2Bb+c".utf8)
        let b = AuthRecord.describe(url: channelURL, body: form, channelEndpoint: channelURL, signinEndpoint: signinURL)
        #expect(b.channel == "presence-a+b c")
        let c = AuthRecord.describe(
            url: signinURL, body: Array(#"{"connection_id":"1.2"}"#.utf8), channelEndpoint: channelURL,
            signinEndpoint: signinURL)
        #expect(c.kind == .signin && c.channel == nil && c.endpoint == "http://127.0.0.1:9/auth/member")
        // The same URL for both: the body decides.
        let d = AuthRecord.describe(
            url: channelURL, body: Array("socket_id=1.2".utf8), channelEndpoint: channelURL, signinEndpoint: channelURL)
        #expect(d.kind == .signin)
        let e = AuthRecord.describe(
            url: try #require(URL(string: "https://user:pw@h.example:8443/a/b?x=1#f")), body: [],
            channelEndpoint: nil, signinEndpoint: nil)
        #expect(e.endpoint == "https://h.example:8443/a/b")
    }

    @Test("restamp changes ts and nothing else")
    func restamp() {
        let line =
            #"{"ts":"2020-01-01T00:00:00.000Z","mono_ms":1.500,"type":"event","channel":"c","data":{"ts":"keep","b":[1, 2]}}"#
        let t = Date(timeIntervalSince1970: 1_800_000_000.25)
        let out = RecordingFormat.restamp(line, ts: t)
        #expect(
            out
                == #"{"ts":"2027-01-15T08:00:00.250Z","mono_ms":1.500,"type":"event","channel":"c","data":{"ts":"keep","b":[1, 2]}}"#
        )
        // ts elsewhere in the line, or missing.
        #expect(
            RecordingFormat.restamp(#"{"type":"x", "ts" : "old","mono_ms":0}"#, ts: t)
                == #"{"type":"x", "ts" : "2027-01-15T08:00:00.250Z","mono_ms":0}"#)
        #expect(RecordingFormat.restamp(#"{"type":"x"}"#, ts: t) == #"{"ts":"2027-01-15T08:00:00.250Z","type":"x"}"#)
        #expect(RecordingFormat.restamp("{}", ts: t) == #"{"ts":"2027-01-15T08:00:00.250Z"}"#)
    }

    @Test("ISO timestamps read back to the same text; any date writes without trapping")
    func iso() {
        for seconds in [0.0, 1_700_000_000.789, 1_700_000_000.001, 951_782_400.5, 4_102_444_799.999, -86_400.5] {
            let text = RecordingTime.iso(Date(timeIntervalSince1970: seconds))
            #expect(RecordingTime.parse(text).map(RecordingTime.iso) == text, "\(text)")
        }
        #expect(RecordingTime.parse("2024-02-29T12:00:00Z").map(RecordingTime.iso) == "2024-02-29T12:00:00.000Z")
        #expect(RecordingTime.parse("2024-02-29T12:00:00.1Z").map(RecordingTime.iso) == "2024-02-29T12:00:00.100Z")
        for bad in ["", "yesterday", "2024-13-01T00:00:00.000Z", "2024-01-01 00:00:00.000Z", "2024-01-01T00:00:00.000"]
        {
            #expect(RecordingTime.parse(bad) == nil, "\(bad)")
        }
        #expect(RecordingTime.iso(Date(timeIntervalSince1970: -86_400.5)) == "1969-12-30T23:59:59.500Z")
        #expect(!RecordingTime.iso(Date(timeIntervalSince1970: -1e300)).isEmpty)
        #expect(!RecordingTime.iso(Date(timeIntervalSince1970: 1e300)).isEmpty)
    }
}
