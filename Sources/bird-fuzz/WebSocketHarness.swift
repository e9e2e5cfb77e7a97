import WebSocket

extension FuzzHarness {
    /// RFC 6455 codec: bytes through `FrameParser` (both roles) and `MessageAssembler`.
    static let websocket = FuzzHarness(
        name: "websocket",
        summary: "bytes -> FrameParser (client and server roles, split stream) -> MessageAssembler",
        entry: { data, size in
            WebSocketFuzz.run(data.fuzzBytes(count: size))
            return 0
        })
}

/// The websocket harness. Besides "never crash", it checks two properties the codec promises,
/// trapping (a fuzzer finding) when one breaks:
/// - the outcome (frames, events, first error) does not depend on how the stream is split;
/// - every parsed frame re-encodes with `FrameEncoder` to bytes that parse back to the same frame.
enum WebSocketFuzz {
    /// Small limits so the size checks (close 1009) are reachable by the fuzzer.
    static let maxFrameSize = 1 << 16
    static let maxMessageSize = 1 << 17

    /// What one pass over the input produced.
    struct Outcome: Equatable {
        var frames: [WebSocketFrame] = []
        var events: [WebSocketEvent] = []
        var error: WebSocketProtocolError?
        var assemblerError: WebSocketProtocolError?
    }

    static func run(_ bytes: [UInt8]) {
        for role in [FrameParser.Role.client, .server] {
            let whole = parse(bytes, role: role, cuts: [])
            let cut = splitPoint(of: bytes)
            let split = parse(bytes, role: role, cuts: [cut])
            if split != whole {
                fatalError("\(role): outcome differs when the stream is split at \(cut): \(whole) vs \(split)")
            }
            if bytes.count <= 512 {
                let byByte = parse(bytes, role: role, cuts: Array(0...bytes.count))
                if byByte != whole {
                    fatalError("\(role): outcome differs when fed one byte at a time: \(whole) vs \(byByte)")
                }
            }
            for frame in whole.frames { checkRoundTrip(frame, role: role) }
        }
    }

    /// A cut position derived from the data (FNV-1a), in 0...count.
    static func splitPoint(of bytes: [UInt8]) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int(hash % UInt64(bytes.count + 1))
    }

    /// Feeds `bytes` in pieces ending at `cuts` (then the rest), draining frames after each piece.
    static func parse(_ bytes: [UInt8], role: FrameParser.Role, cuts: [Int]) -> Outcome {
        var parser = FrameParser(role: role, maxFrameSize: maxFrameSize)
        var assembler = MessageAssembler(maxMessageSize: maxMessageSize)
        var outcome = Outcome()
        var start = 0
        for end in cuts + [bytes.count] where end >= start && end <= bytes.count {
            parser.append(bytes[start..<end])
            start = end
            do {
                while let frame = try parser.next() {
                    outcome.frames.append(frame)
                    if outcome.assemblerError == nil {
                        do {
                            if let event = try assembler.push(frame) {
                                outcome.events.append(event)
                            }
                        } catch {
                            outcome.assemblerError = error
                        }
                    }
                }
            } catch {
                outcome.error = error
                return outcome
            }
        }
        return outcome
    }

    /// Re-encodes `frame` as the peer of `role` would send it and parses it back.
    static func checkRoundTrip(_ frame: WebSocketFrame, role: FrameParser.Role) {
        let mask: (UInt8, UInt8, UInt8, UInt8)? = role == .server ? (0x37, 0xfa, 0x21, 0x3d) : nil
        let encoded = FrameEncoder.encode(opcode: frame.opcode, payload: frame.payload, fin: frame.fin, mask: mask)
        var parser = FrameParser(role: role, maxFrameSize: maxFrameSize)
        parser.append(encoded)
        do {
            guard let back = try parser.next(), back == frame, parser.bufferedByteCount == 0 else {
                fatalError("\(role): frame \(frame) does not survive encode/parse")
            }
        } catch {
            fatalError("\(role): re-encoded frame \(frame) fails to parse: \(error)")
        }
    }
}
