// Find, keep and share in the event log: the filter's query in the prompt, search with n/N,
// marks, export (w, :export) and copy (y, OSC 52).

import BirdWire
import Foundation
import Testing

@testable import BirdInspector

@Suite("Find, keep and share")
struct FindKeepShareTests {
    /// Connected, three channels, then events alternating chat / presence-room (`client-typing`
    /// on the presence channel), seq numbers recorded.
    static func session(_ n: Int = 6) -> Harness {
        var h = Harness(size: Size(width: 120, height: 40))
        h.connectAndSubscribe()
        for i in 0..<n {
            let record =
                i % 2 == 0
                ? ChannelEventRecord(channel: "chat", event: "message", data: #"{"n":\#(i)}"#)
                : ChannelEventRecord(channel: "presence-room", event: "client-typing", data: #"{"n":\#(i)}"#)
            h.client(.event(record), at: 10 + Double(i))
        }
        return h
    }

    /// Sequence numbers of the events with `n` in `ns`.
    static func seqs(_ h: Harness, _ ns: [Int]) -> [Int] {
        ns.compactMap { n in
            (h.model.log.firstSeq...h.model.log.lastSeq).first { seq in
                guard case .event(let e)? = h.model.log.entry(seq: seq)?.event else { return false }
                return e.data == #"{"n":\#(n)}"#
            }
        }
    }

    @Test("the filter prompt takes a query; an invalid regex is refused and the filter in force stays")
    func filterQuery() {
        var h = Self.session()
        h.type("/ch:presence-room ev:client-*\n")
        #expect(h.model.mode == .normal)
        #expect(Inspector.visibleSeqs(h.model) == Self.seqs(h, [1, 3, 5]))
        #expect(contains(h.render(), "filter “ch:presence-room ev:client-*” 3/"))
        // The prompt names the query's fields.
        h.type("/")
        #expect(h.render().lines[39].hasSuffix("ch: ev: dir:in|out kind: /re/ !not · Enter · Esc"))
        h.press(.escape)
        // An unclosed group: refused on Enter, the prompt stays, the filter from before is in force.
        h.type("/")
        h.press(.ctrl("u"))
        h.type("/(n/")
        h.press(.enter)
        #expect(h.model.flash?.isError == true)
        #expect(h.model.flash?.text.contains("invalid regex /(n/") == true)
        guard case .prompt = h.model.mode else {
            Issue.record("the prompt closed on an invalid query")
            return
        }
        #expect(h.model.filter == "ch:presence-room ev:client-*")
        h.press(.escape)
        #expect(Inspector.visibleSeqs(h.model) == Self.seqs(h, [1, 3, 5]))
        // :filter sets and clears it.
        h.type(":filter dir:in /\"n\":[04]/\n")
        #expect(Inspector.visibleSeqs(h.model) == Self.seqs(h, [0, 4]))
        h.type(":filter\n")
        #expect(h.model.filter.isEmpty)
    }

    @Test("search flags matches without hiding others; n / N move through them and wrap with a message")
    func searchNext() {
        var h = Self.session()
        let all = Inspector.visibleSeqs(h.model)
        h.type("fev:client-typing\n")
        #expect(h.model.mode == .normal)
        #expect(Inspector.visibleSeqs(h.model) == all, "nothing hidden")
        let hits = Self.seqs(h, [1, 3, 5])
        // Following: the newest match is selected.
        #expect(h.model.selectedSeq == hits[2])
        #expect(h.model.flash?.text == "3 matches for “ev:client-typing” · n / N move")
        h.type("n")
        #expect(h.model.selectedSeq == hits[0])
        #expect(h.model.flash?.text.hasPrefix("wrapped to the first match") == true)
        h.type("n")
        #expect(h.model.selectedSeq == hits[1])
        #expect(h.model.flash?.text == "match 2 of 3")
        h.type("NN")
        #expect(h.model.selectedSeq == hits[2])
        #expect(h.model.flash?.text.hasPrefix("wrapped to the last match") == true)
        // The gutter flags the matches; the title counts them.
        let g = h.render()
        #expect(contains(g, "search “ev:client-typing” 3 · n/N"))
        let flagged = paneRows(g, drawnLayout(g).events).filter { $0.hasPrefix("▸") }
        #expect(flagged.count == 3 && flagged.allSatisfy { $0.contains("client-typing") })
        // A match's time is drawn bold in the info colour, another entry's dimmed.
        let events = drawnLayout(g).events.inner
        let rowStyles = (events.y..<(events.y + events.height)).compactMap { y -> (String, CellStyle)? in
            let row = g.lines[y]
            guard row.contains("client-typing") || row.contains("message") else { return nil }
            return (row, g[events.x + 1, y].style)
        }
        #expect(rowStyles.count == 6)
        for (row, style) in rowStyles where !style.reverse {
            #expect(style.role == (row.contains("client-typing") ? .info : .dim), "\(row)")
        }
        // No match: said, selection kept.
        h.type(":search zzz\n")
        #expect(h.model.flash?.text == "no match for “zzz”")
        h.type("n")
        #expect(h.model.flash?.text == "no match for “zzz”")
        #expect(h.model.selectedSeq == hits[2])
        // Esc in the search prompt puts the search back as it was.
        h.type("f")
        h.press(.ctrl("u"))
        h.type("message")
        #expect(h.model.find.search?.text == "message")
        h.press(.escape)
        #expect(h.model.find.search?.text == "zzz")
        h.type(":search\n")
        #expect(h.model.find.search == nil)
        h.type("n")
        #expect(h.model.flash?.text == "next match: no search (f sets one)")
    }

    @Test("marks: m toggles, ] / [ jump and wrap, marks survive filter changes")
    func marks() {
        var h = Self.session()
        let s = Self.seqs(h, [0, 1, 2, 3, 4, 5])
        h.type("m")  // following: marks the newest (n=5) and pauses there
        #expect(h.model.find.marks == [s[5]])
        #expect(h.model.paused)
        h.press(.up)
        h.press(.up)
        h.type("m")  // n=3
        h.press(.up)
        h.press(.up)
        h.press(.up)
        h.type("m")  // n=0
        #expect(h.model.find.marks == [s[5], s[3], s[0]])
        h.type("]")
        #expect(h.model.selectedSeq == s[3])
        h.type("]]")
        #expect(h.model.selectedSeq == s[0])
        #expect(h.model.flash?.text.hasPrefix("wrapped to the first mark") == true)
        h.type("[")
        #expect(h.model.selectedSeq == s[5])
        #expect(h.model.flash?.text.hasPrefix("wrapped to the last mark") == true)
        // A filter hiding n=0 and n=3's channel: the marks stay, the jumps skip the hidden ones.
        h.type("/ch:presence-room\n")
        #expect(h.model.find.marks == [s[5], s[3], s[0]])
        #expect(Inspector.visibleSeqs(h.model).count == 4, "presence-room: subscribed and three events")
        h.type("]")
        #expect(h.model.selectedSeq == s[3])
        h.type("/")
        h.press(.ctrl("u"))
        h.type("ch:chat\n")
        h.type("]")
        #expect(h.model.selectedSeq == s[0])
        h.type("]")
        #expect(h.model.flash?.text == "the only mark")
        h.type("/")
        h.press(.ctrl("u"))
        h.press(.enter)
        #expect(h.model.filter.isEmpty)
        let g = h.render()
        let rows = paneRows(g, drawnLayout(g).events)
        #expect(rows.filter { $0.hasPrefix("●") }.count == 3, "\(rows)")
        #expect(contains(g, "3 marked · ]/["))
        // m on a marked entry unmarks it; :mark clear removes the rest.
        h.type("m")
        #expect(h.model.find.marks == [s[5], s[3]])
        h.type(":mark clear\n")
        #expect(h.model.find.marks.isEmpty)
        h.type("]")
        #expect(h.model.flash?.text == "next mark: no marks (m marks the selected entry)")
    }

    @Test("w and :export: the filtered log as --jsonl lines in one command; the driver's answer is said")
    func export() throws {
        var h = Self.session()
        h.client(
            .subscriptionError(
                channel: "private-orders",
                SubscriptionFailure(
                    type: "AuthError", status: 403, endpoint: "http://x/auth?token=hunter2",
                    message: "refused signature app-key:" + String(repeating: "ab", count: 32))), at: 20)
        h.type("/ch:presence-room,private-orders\n")
        h.type("/")
        h.press(.ctrl("u"))
        h.type("ch:presence-room dir:in\n")
        h.commands = []
        h.type("w")
        guard case .prompt(let prompt) = h.model.mode, prompt.purpose == .export else {
            Issue.record("w did not prompt for a path")
            return
        }
        #expect(prompt.text.hasPrefix("bird-inspect-") && prompt.text.hasSuffix(".jsonl"))
        h.press(.ctrl("u"))
        h.type("out.jsonl\n")
        guard case .export(let path, let contents, let entries)? = h.commands.last else {
            Issue.record("no export command: \(h.commands)")
            return
        }
        #expect(path == "out.jsonl")
        let lines = contents.split(separator: "\n").map(String.init)
        // subscribed + three client-typing events, as their --jsonl lines.
        #expect(entries == 4 && lines.count == 4)
        let expected = (h.model.log.firstSeq...h.model.log.lastSeq).compactMap { h.model.log.entry(seq: $0) }
            .filter { h.model.filterQuery.matches($0) }.map { JSONLines.line($0.event, at: $0.time) }
        #expect(lines == expected)
        #expect(lines.allSatisfy { $0.contains(#""channel":"presence-room""#) })
        #expect(lines.last?.contains(#""type":"event""#) == true)
        // The answer from the driver goes on the status line.
        h.commands += Inspector.update(&h.model, .exported(path: "/tmp/out.jsonl", entries: 4, error: nil))
        #expect(h.model.flash?.text == "wrote 4 entries to /tmp/out.jsonl")
        h.commands += Inspector.update(
            &h.model, .exported(path: "/nope/out.jsonl", entries: 4, error: "cannot open /nope/out.jsonl: No such file")
        )
        #expect(h.model.flash?.isError == true)
        #expect(h.model.flash?.text.contains("No such file") == true)
        // Secrets stay redacted in an export, as in --jsonl.
        h.type(":filter kind:error\n")
        h.commands = []
        h.type(":export errors.jsonl\n")
        // The subscription error, and the failed export's command_error.
        guard case .export(_, let errors, 2)? = h.commands.last else {
            Issue.record("no export of the errors: \(h.commands)")
            return
        }
        #expect(errors.contains(#""type":"subscription_error""#))
        #expect(!errors.contains("hunter2") && !errors.contains(String(repeating: "ab", count: 32)))
        // Nothing matching: refused, nothing to write.
        h.type(":filter zzz\n")
        h.commands = []
        h.type(":export x.jsonl\n")
        #expect(h.commands.isEmpty)
        #expect(h.model.flash?.text == "export: no entry matches the filter")
    }

    @Test("y copies the selected entry's JSON line; too large an entry is refused")
    func copy() {
        var h = Self.session()
        h.press(.up)
        let selected = Inspector.selectedEntry(h.model)
        h.commands = []
        h.type("y")
        guard let entry = selected, case .copy(let text)? = h.commands.last else {
            Issue.record("no copy command: \(h.commands)")
            return
        }
        #expect(text == JSONLines.line(entry.event, at: entry.time))
        #expect(h.model.flash?.text == "copied \(text.utf8.count) bytes (entry \(entry.seq)) to the clipboard")
        // From the detail view too.
        h.press(.enter)
        h.commands = []
        h.type("y")
        #expect(h.commands == [.copy(text: text)])
        h.press(.escape)
        // Larger than 100 KB: refused.
        h.client(
            .event(
                ChannelEventRecord(
                    channel: "chat", event: "big", data: "\"" + String(repeating: "x", count: 110_000) + "\"")), at: 30)
        h.press(.end)
        h.commands = []
        h.type(":copy\n")
        #expect(h.commands.isEmpty)
        #expect(h.model.flash?.text.hasPrefix("copy: entry is 1100") == true)
    }

    @Test("the filter's and the search's matches are kept as entries arrive and leave the log, and equal a full scan")
    func matchCache() {
        var h = Harness(size: Size(width: 120, height: 40), logSize: 50)
        h.connectAndSubscribe()
        h.type("/ch:chat /\"n\":[0-9]*[05],/\n")
        #expect(h.model.mode == .normal)
        h.type("f\"n\":1\n")
        func scan(_ q: LogQuery) -> [Int] {
            let log = h.model.log
            return (log.firstSeq...log.lastSeq).filter { log.entry(seq: $0).map(q.matches) == true }
        }
        for round in 0..<4 {
            h.events(40, from: 10 + Double(round) * 10)
            h.client(.event(ChannelEventRecord(channel: "presence-room", event: "client-x", data: #"{"n":5}"#)), at: 20)
            #expect(h.model.find.filterHits.isCurrent(for: h.model.filterQuery, h.model.log))
            #expect(Inspector.visibleSeqs(h.model) == scan(h.model.filterQuery), "round \(round)")
            if let search = h.model.find.search {
                let hits = scan(search)
                #expect(!hits.isEmpty)
                let log = h.model.log
                #expect((log.firstSeq...log.lastSeq).filter { Inspector.isSearchMatch($0, h.model) } == hits)
            } else {
                Issue.record("no search")
            }
        }
        // A new query is scanned afresh.
        h.type(":filter ch:presence-room\n")
        #expect(Inspector.visibleSeqs(h.model) == scan(h.model.filterQuery))
        #expect(!Inspector.visibleSeqs(h.model).isEmpty)
    }

    @Test("OSC 52: ESC ] 52 ; c ; base64 BEL, and inside tmux also the passthrough with ESC doubled")
    func osc52() {
        let text = #"{"type":"event","data":"é"}"#
        let b64 = Data(text.utf8).base64EncodedString()
        #expect(Clipboard.osc52(text) == "\u{1B}]52;c;\(b64)\u{07}")
        #expect(Clipboard.bytes(copying: text, insideTmux: false) == Array("\u{1B}]52;c;\(b64)\u{07}".utf8))
        let wrapped = "\u{1B}Ptmux;\u{1B}\u{1B}]52;c;\(b64)\u{07}\u{1B}\\"
        #expect(Clipboard.tmuxPassthrough(Clipboard.osc52(text)) == wrapped)
        #expect(Clipboard.bytes(copying: text, insideTmux: true) == Array(("\u{1B}]52;c;\(b64)\u{07}" + wrapped).utf8))
    }

    @Test("the find commands are the terminal's: --jsonl scripts refuse them; prefixes resolve")
    func commands() {
        #expect(
            CommandText.parse("export x.jsonl")
                == .failure(.init("export works on the terminal's event log (not in --jsonl scripts)")))
        #expect(CommandText.resolve("ex") == .success("export"))
        // A script's help names only what a script can run.
        guard case .failure(let help) = CommandText.parse("help") else {
            Issue.record("help parsed")
            return
        }
        #expect(help.message.hasSuffix("help · quit") && !help.message.contains("export"))
        #expect(CommandText.resolve("fil") == .success("filter"))
        #expect(FindCommand.parse(verb: "next", line: "n mark") == .success(.next(mark: true)))
        #expect(FindCommand.parse(verb: "prev", line: "prev") == .success(.previous(mark: false)))
        #expect(FindCommand.parse(verb: "search", line: "search  ch:a  b ") == .success(.search("ch:a  b")))
        #expect(FindCommand.parse(verb: "mark", line: "mark all") == .failure(.init("usage: mark [clear]")))
    }

    @Test("the find keys work while replaying a recording (no client needed)")
    func replaying() throws {
        var h = try PlaybackHarness(speed: 0)
        h.tick(0)
        h.tick(1)
        #expect(h.model.log.count > 0)
        h.type("y")
        #expect(h.commands.count == 1, "\(String(describing: h.model.flash))")
        h.type(":export r2.jsonl\n")
        guard case .export(let path, _, let n)? = h.commands.last else {
            Issue.record("no export while replaying: \(h.commands)")
            return
        }
        #expect(path == "r2.jsonl" && n == h.model.log.count)
    }
}
