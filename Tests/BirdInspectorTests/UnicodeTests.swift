// Display width: wide and combining characters, and layouts that survive them.

import Foundation
import Testing

@testable import BirdInspector

@Suite("Display width")
struct UnicodeTests {
    @Test("scalar widths: ASCII, CJK, emoji, combining, format, control")
    func widths() {
        #expect(DisplayWidth.of("a" as Unicode.Scalar) == 1)
        #expect(DisplayWidth.of("中" as Unicode.Scalar) == 2)
        #expect(DisplayWidth.of("こ" as Unicode.Scalar) == 2)
        #expect(DisplayWidth.of("한" as Unicode.Scalar) == 2)
        #expect(DisplayWidth.of("👋" as Unicode.Scalar) == 2)
        #expect(DisplayWidth.of("\u{301}" as Unicode.Scalar) == 0)  // combining acute
        #expect(DisplayWidth.of("\u{200D}" as Unicode.Scalar) == 0)  // ZWJ
        #expect(DisplayWidth.of("\u{FE0F}" as Unicode.Scalar) == 0)  // variation selector
        #expect(DisplayWidth.of("\u{7}" as Unicode.Scalar) == -1)
        #expect(DisplayWidth.of("é" as Unicode.Scalar) == 1)
        #expect(DisplayWidth.of("─" as Unicode.Scalar) == 1)
        #expect(DisplayWidth.of("e\u{301}te\u{301}") == 3)
        #expect(DisplayWidth.of("中文ab") == 6)
    }

    @Test("truncation never cuts a wide character in half")
    func truncation() {
        #expect(DisplayWidth.truncate("中文中文", to: 5) == "中文…")
        #expect(DisplayWidth.of(DisplayWidth.truncate("中文中文", to: 4)) <= 4)
        #expect(DisplayWidth.truncate("abc", to: 3) == "abc")
        #expect(DisplayWidth.pad("中", to: 3) == "中 ")
        for width in 1...9 {
            #expect(DisplayWidth.of(DisplayWidth.truncate("a中b文👋c", to: width)) <= width)
            #expect(DisplayWidth.of(DisplayWidth.pad("a中b文👋c", to: width)) == width)
        }
    }

    @Test("the grid puts a space where a wide character does not fit, and keeps combining marks")
    func gridPut() {
        var g = Grid(size: Size(width: 5, height: 1))
        let used = g.put("ab中文", x: 0, y: 0)
        #expect(used == 4)
        #expect(g.lines[0] == "ab中 ")
        #expect(g[2, 0].width == 2 && g[3, 0].width == 0)
        var c = Grid(size: Size(width: 4, height: 1))
        c.put("e\u{301}x\u{7}", x: 0, y: 0)
        #expect(c[0, 0].text == "e\u{301}")
        #expect(c[2, 0].text == "·")
        // Overwriting half of a wide character blanks the other half.
        var o = Grid(size: Size(width: 4, height: 1))
        o.put("中中", x: 0, y: 0)
        o.put("x", x: 1, y: 0)
        #expect(o.lines[0] == " x中")
        #expect(DisplayWidth.of(o.lines[0]) == 4)
    }

    @Test("wide and combining Unicode in event data does not break the layout", arguments: screenSizes)
    func eventLayout(size: Size) {
        var h = Harness(size: size)
        h.connectAndSubscribe()
        let samples = [
            #"{"text":"こんにちは世界、これは長いメッセージです。中文字符测试。한국어 텍스트 👋👋👋🎉🎉"}"#,
            #"{"text":"cafe\u0301 e\u0301te\u0301 Z\u0351\u0352a\u0353l\u0354g\u0355o combining"}"#,
            "raw e\u{301}\u{302}\u{303} text 中文 with\ttab and\nnewline and \u{7} bell",
            #"{"family":"👨‍👩‍👧‍👦","flag":"🇮🇩","vs":"❤️"}"#,
        ]
        for (i, data) in samples.enumerated() {
            h.client(
                .event(ChannelEventRecord(channel: "presence-room", event: "msg-中文-\(i)", data: data, memberId: "李雷")),
                at: 1 + Double(i))
        }
        h.client(
            .membersSnapshot(
                channel: "presence-room",
                members: [
                    PresenceMember(id: "李雷", info: #"{"name":"李雷 👋 e\u0301"}"#),
                    PresenceMember(id: "zoë", info: nil),
                ], myId: "李雷"), at: 6)
        let g = h.render()
        expectPanesFramed(g)
        #expect(contains(g, "msg-中文"))
        if size.width >= 200 { #expect(contains(g, "こんにちは世界")) }
        #expect(contains(g, "★ 李雷 (you)"))
        // The detail view of the wide entry is framed too.
        h.press(.enter)
        let d = h.render()
        for (y, text) in d.lines.enumerated() { #expect(DisplayWidth.of(text) == size.width, "detail row \(y)") }
    }

    @Test("wrapping respects display width")
    func wrap() {
        let lines = DisplayWidth.wrap("中文中文中文 abc defghijklmnop", width: 5)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 5 })
        #expect(lines.joined().replacingOccurrences(of: " ", with: "") == "中文中文中文abcdefghijklmnop")
    }
}
