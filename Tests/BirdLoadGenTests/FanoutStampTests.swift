import BirdWire
import Testing

@testable import BirdLoadGen

@Suite("Fan-out payload stamps")
struct FanoutStampTests {
    @Test("A payload reads back as its stamp, plain and as the edge sends it (data double-encoded)")
    func roundTrip() throws {
        let stamp = FanoutStamp(seq: 17, sentNanos: 2_519_873_004_211)
        let payload = stamp.payload(size: 100)
        #expect(payload.utf8.count == 100)
        #expect(FanoutStamp.find(in: payload) == stamp)
        let wire = WireMessage(event: "tick", channel: "bench", data: .string(payload)).encode()
        #expect(wire.contains("\\\"t_ns\\\":2519873004211"))  // escaped on the wire
        #expect(FanoutStamp.find(in: wire) == stamp)
    }

    @Test("The largest 64-bit values read back; one more digit is refused, not wrapped")
    func limits() {
        let big = FanoutStamp(seq: UInt64.max, sentNanos: UInt64.max)
        #expect(FanoutStamp.find(in: big.payload()) == big)
        #expect(FanoutStamp.find(in: "{\"seq\":1,\"t_ns\":184467440737095516160}") == nil)
        #expect(FanoutStamp.find(in: "{\"seq\":1,\"t_ns\":18446744073709551616}") == nil)
    }

    @Test("Keys must be whole quoted names followed by a colon; missing or non-numeric values give nil")
    func keys() {
        #expect(
            FanoutStamp.find(in: "{\"subseq\":5,\"seq\" : 7,\"t_ns\": 9}") == FanoutStamp(seq: 7, sentNanos: 9))
        #expect(FanoutStamp.find(in: "{\"seq\":7}") == nil)
        #expect(FanoutStamp.find(in: "{\"seq\":7,\"t_ns\":\"9\"}") == nil)
        #expect(FanoutStamp.find(in: "{\"seq\":,\"t_ns\":9}") == nil)
        #expect(FanoutStamp.find(in: "") == nil)
        #expect(FanoutStamp.find(in: "seq") == nil)
    }
}
