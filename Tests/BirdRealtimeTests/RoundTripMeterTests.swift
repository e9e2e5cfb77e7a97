import Testing
@testable import BirdRealtime

@Suite("RoundTripMeter (pure)")
struct RoundTripMeterTests {
    @Test("one measurement from the first ping out to the next pong; a pong with none out measures nothing")
    func measures() {
        var meter = RoundTripMeter()
        #expect(meter.pongReceived(now: .seconds(1)) == nil)
        meter.pingSent(now: .seconds(10))
        meter.pingSent(now: .seconds(11))
        #expect(meter.pongReceived(now: .milliseconds(11_500)) == .milliseconds(1_500))
        #expect(meter.last == .milliseconds(1_500))
        #expect(meter.pongReceived(now: .seconds(12)) == nil)
        #expect(meter.last == .milliseconds(1_500))
    }

    @Test("the connection's end voids the ping out; the clock going backwards measures zero")
    func endsAndClamps() {
        var meter = RoundTripMeter()
        meter.pingSent(now: .seconds(5))
        meter.connectionEnded()
        #expect(meter.pongReceived(now: .seconds(6)) == nil)
        meter.pingSent(now: .seconds(9))
        #expect(meter.pongReceived(now: .seconds(8)) == .zero)
    }
}
