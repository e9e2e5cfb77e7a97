import Testing

/// The recording file format the netlink tests read (`NetlinkRecording`).
@Suite struct NetlinkRecordingTests {
    @Test("a recording file: comments, port id, sections of hex datagrams, an empty section")
    func parsesSections() throws {
        let text = """
            # a comment
            portId 42

            # doc
            [first]
            0a0b
            ff00ff

            [empty]
            """
        let (portId, sections) = try NetlinkRecording.parse(text)
        #expect(portId == 42)
        #expect(sections["first"] == [[0x0a, 0x0b], [0xff, 0x00, 0xff]])
        #expect(sections["empty"] == [])
        #expect(sections.count == 2)
    }

    @Test(
        "malformed files are refused with the line",
        arguments: [
            ("[a]\n0a\n", 0),  // no port id
            ("portId x\n", 1),
            ("portId 1\n0a0b\n", 2),  // a datagram before any section
            ("portId 1\n[a]\n0a0\n", 3),  // an odd number of digits
            ("portId 1\n[a]\n0A0B\n", 3),  // upper case is not the format
        ])
    func refusesMalformed(text: String, line: Int) {
        #expect {
            _ = try NetlinkRecording.parse(text)
        } throws: { error in
            (error as? NetlinkRecording.FormatError)?.line == line
        }
    }

    @Test("both recordings load with their port ids and every section the tests read")
    func recordingsLoad() {
        #expect(Recordings.host.portId == 23664)
        #expect(Recordings.namespace.portId == 23652)
        #expect(Recordings.host.linksDump.count == 3)
        #expect(Recordings.namespace.linkUp.count == 4)
    }
}
