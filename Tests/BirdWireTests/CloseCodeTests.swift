import Testing
@testable import BirdWire

@Suite("Close codes and bands")
struct CloseCodeTests {
    @Test(
        "bands, including unassigned codes",
        arguments: [
            (4000, CloseBand.refused), (4009, .refused), (4050, .refused), (4099, .refused),
            (4100, .backoff), (4150, .backoff), (4199, .backoff),
            (4200, .immediate), (4250, .immediate), (4299, .immediate),
            (4300, .errorEvent), (4399, .errorEvent),
            (1000, .standard), (1006, .standard), (1015, .standard), (4400, .standard),
        ])
    func bands(_ code: Int, _ band: CloseBand) {
        #expect(CloseCode.band(code) == band)
    }

    @Test("what a client does after a server close")
    func actions() {
        #expect(CloseCode.action(forServerClose: 4009, reachedConnected: true) == .fail)
        #expect(CloseCode.action(forServerClose: 4077, reachedConnected: false) == .fail)
        #expect(CloseCode.action(forServerClose: 4200, reachedConnected: true) == .reconnectNow)
        #expect(CloseCode.action(forServerClose: 4242, reachedConnected: true) == .reconnectNow)
        #expect(CloseCode.action(forServerClose: 4200, reachedConnected: false) == .backoff)
        #expect(CloseCode.action(forServerClose: 4100, reachedConnected: true) == .backoff)
        #expect(CloseCode.action(forServerClose: 1000, reachedConnected: true) == .backoff)
        #expect(CloseCode.action(forServerClose: 4301, reachedConnected: true) == .backoff)
    }

    @Test("meanings, known and by band")
    func meanings() {
        #expect(CloseCode.meaning(4009) == "unauthorized")
        #expect(CloseCode.meaning(4201) == "pong not received")
        #expect(CloseCode.meaning(4055).contains("refused"))
        #expect(CloseCode.summary(4009).contains("no retry"))
        #expect(CloseCode.summary(4200) == "4200 generic reconnect immediately", "the band is not said twice")
    }
}
