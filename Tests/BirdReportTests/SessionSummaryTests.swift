import BirdReport
import Testing

/// The summary model from small hand-written recordings and from the sandbox fixtures.
@Suite struct SessionSummaryTests {
    /// Four reconnects (two 4200, a drop, a 4100), the longest outage 5.2 s, three auth 503s.
    static func busySession() -> Handmade {
        var h = Handmade()
        h.channels = ["news", "private-x"]
        h.state(10, "initialized", "connecting", cause: "client started")
        h.state(20, "connecting", "connected", cause: "handshake received")
        h.add(25, "subscribed", "\"channel\":\"news\"")
        h.add(
            30, "auth",
            "\"kind\":\"channel\",\"endpoint\":\"http://127.0.0.1:6001/auth\",\"channel\":\"private-x\",\"status\":200,\"ms\":3"
        )
        h.add(31, "subscribed", "\"channel\":\"private-x\"")
        h.add(500, "event", "\"channel\":\"news\",\"event\":\"story\",\"data\":{}")
        h.add(1500, "event", "\"channel\":\"news\",\"event\":\"story\",\"data\":{}")
        h.state(
            2000, "connected", "connecting",
            cause: "server closed: 4200 generic reconnect immediately (edge restarting)", code: 4200)
        h.state(2010, "connecting", "connected", cause: "handshake received")
        h.add(2012, "subscribed", "\"channel\":\"news\"")
        h.add(
            2013, "auth",
            "\"kind\":\"channel\",\"endpoint\":\"http://127.0.0.1:6001/auth\",\"channel\":\"private-x\",\"status\":503,\"ms\":2"
        )
        h.add(
            2014, "subscription_error",
            "\"channel\":\"private-x\",\"error_type\":\"AuthError\",\"status\":503,\"message\":\"auth endpoint answered HTTP 503\""
        )
        h.state(3000, "connected", "unavailable", cause: "network error: connection lost (1006)")
        h.add(3000, "retry", "\"in_ms\":1200,\"attempt\":0,\"cause\":\"network error: connection lost (1006)\"")
        h.state(4200, "unavailable", "connecting", cause: "retry due")
        h.state(4201, "connecting", "unavailable", cause: "network error: connection refused by 127.0.0.1:6001")
        h.add(
            4201, "retry",
            "\"in_ms\":3999,\"attempt\":1,\"cause\":\"network error: connection refused by 127.0.0.1:6001\"")
        h.state(8200, "unavailable", "connecting", cause: "retry due")
        h.state(8200.5, "connecting", "connected", cause: "handshake received")
        h.add(8201, "subscribed", "\"channel\":\"news\"")
        h.add(
            8202, "auth",
            "\"kind\":\"channel\",\"endpoint\":\"http://127.0.0.1:6001/auth\",\"channel\":\"private-x\",\"status\":503,\"ms\":2"
        )
        h.state(
            9000, "connected", "unavailable", cause: "server closed: 4100 over capacity (over capacity)", code: 4100)
        h.add(
            9000, "retry", "\"in_ms\":500,\"attempt\":0,\"cause\":\"server closed: 4100 over capacity (over capacity)\""
        )
        h.state(9500, "unavailable", "connecting", cause: "retry due")
        h.state(9510, "connecting", "connected", cause: "handshake received")
        h.add(
            9511, "auth",
            "\"kind\":\"signin\",\"endpoint\":\"http://127.0.0.1:6001/auth/member\",\"status\":503,\"ms\":2")
        h.add(9512, "subscribed", "\"channel\":\"news\"")
        h.state(
            10_000, "connected", "connecting",
            cause: "server closed: 4200 generic reconnect immediately (edge restarting)", code: 4200)
        h.state(10_005, "connecting", "connected", cause: "handshake received")
        h.add(10_006, "subscribed", "\"channel\":\"news\"")
        h.add(12_000, "event", "\"channel\":\"news\",\"event\":\"story\",\"data\":{}")
        return h
    }

    @Test func theHeadlineNamesReconnectsOutageAndAuthFailures() throws {
        let s = try Self.busySession().summary()
        #expect(
            Headline.sentence(s)
                == "4 reconnects: 2 × 4200, 1 × drop, 1 × 4100; 1 failed attempt: 1 × refused; longest outage 5.2 s; "
                + "3 auth failures (503); 1 subscription error")
    }

    @Test func spansCoverTheRecordingBackToBack() throws {
        let s = try Self.busySession().summary()
        #expect(s.endMs == 12_000)
        #expect(s.spans.first?.startMs == 0)
        #expect(s.spans.first?.state.known == .initialized)
        #expect(s.spans.last?.endMs == 12_000)
        #expect(s.spans.last?.isLast == true)
        for (a, b) in zip(s.spans, s.spans.dropFirst()) { #expect(a.endMs == b.startMs) }
        #expect(s.spans.count == s.changes.count + 1)
        #expect(s.spans.filter { $0.state.known == .connected }.compactMap(\.connectionId).count == 5)
        #expect(s.finalState.known == .connected)
    }

    @Test func endsAreClassifiedAndCarryTheirRetry() throws {
        let s = try Self.busySession().summary()
        #expect(s.ends.map(\.reason) == [.close(4200), .drop, .refused, .close(4100), .close(4200)])
        #expect(s.ends.map(\.isLoss) == [true, true, false, true, true])
        #expect(s.ends.map(\.retryWaitMs) == [nil, 1200, 3999, 500, nil])
        #expect(s.retries.count == 3)
        #expect(s.outages.map(\.durationMs) == [10, 5200.5, 510, 5])
        #expect(s.outages.allSatisfy { $0.recovered })
        #expect(s.longestOutage?.reason == .drop)
    }

    @Test func channelsHaveSubscriptionsGapsAndRates() throws {
        let s = try Self.busySession().summary()
        #expect(s.channels.map(\.name) == ["news", "private-x"])
        let news = s.channels[0]
        #expect(news.subscribedAtMs == [25, 2012, 8201, 9512, 10_006])
        #expect(
            news.gaps == [
                Gap(startMs: 2000, endMs: 2012), Gap(startMs: 3000, endMs: 8201), Gap(startMs: 9000, endMs: 9512),
                Gap(startMs: 10_000, endMs: 10_006),
            ])
        #expect(news.eventCount == 3)
        #expect(news.eventNames == [NameCount(name: "story", count: 3)])
        #expect(news.longestQuietMs == 1000)
        #expect(s.bucketMs == 250)
        #expect(news.buckets.count == 48)
        #expect(news.buckets.reduce(0, +) == 3)
        #expect(news.buckets[2] == 1 && news.buckets[6] == 1 && news.buckets[47] == 1)
        let privateX = s.channels[1]
        #expect(privateX.errors.map(\.status) == [503])
        // Lost with the first connection, never subscribed again: open until the end.
        #expect(privateX.gaps == [Gap(startMs: 2000, endMs: 12_000, open: true)])
    }

    @Test func authAndErrorsAreListed() throws {
        let s = try Self.busySession().summary()
        #expect(s.auth.map(\.resultLabel) == ["200", "503", "503", "503"])
        #expect(s.failedAuth.map(\.kind) == ["channel", "channel", "signin"])
        #expect(s.errors.map(\.kind) == ["subscription_error"])
        #expect(s.errors.first?.channel == "private-x")
    }

    @Test func aFailedSessionAndAnUnfinishedOutage() throws {
        var h = Handmade()
        h.state(1, "initialized", "connecting")
        h.state(5, "connecting", "connected")
        h.state(
            3000, "connected", "failed", cause: "server closed: 4009 unauthorized (terminated by the app)", code: 4009)
        h.add(3000, "error", "\"code\":4009,\"message\":\"unauthorized\",\"reason\":\"terminated by the app\"")
        h.add(4000, "command_error", "\"command\":\"connect\",\"message\":\"nope\"")
        let failed = try h.summary()
        #expect(failed.finalState.known == .failed)
        #expect(
            failed.ends == [
                ConnectionEnd(
                    atMs: 3000, from: SessionState(.connected), to: SessionState(.failed), reason: .close(4009),
                    cause: "server closed: 4009 unauthorized (terminated by the app)")
            ])
        #expect(
            Headline.sentence(failed)
                == "No reconnects; connection failed with 4009 (terminated by the app); 1 error (4009)")
        #expect(
            Headline.figures(failed).first { $0.label == "longest outage" }?.value
                == "1.0 s (not over when the recording ended)")
        // The fixture failed at its last entry: no outage worth a figure.
        #expect(!Headline.figures(try Fixture.summary("terminated-member")).contains { $0.label == "longest outage" })

        var down = Handmade()
        down.state(1, "initialized", "connecting")
        down.state(5, "connecting", "connected")
        down.state(1000, "connected", "unavailable", cause: "network error: connection lost (1006)")
        down.add(1000, "retry", "\"in_ms\":800,\"attempt\":0,\"cause\":\"x\"")
        down.state(1800, "unavailable", "connecting")
        down.state(1801, "connecting", "unavailable", cause: "network error: connection refused by h")
        down.add(6000, "subscribed", "\"channel\":\"elsewhere\"")
        let s = try down.summary()
        #expect(s.outages == [Outage(startMs: 1000, endMs: 6000, recovered: false, reason: .drop)])
        #expect(
            Headline.sentence(s)
                == "1 reconnect: 1 × drop; 1 failed attempt: 1 × refused; down for 5.0 s when the recording ended; "
                + "ended unavailable")
        #expect(
            Headline.figures(s).first { $0.label == "longest outage" }?.value
                == "5.0 s (not over when the recording ended)")
    }

    @Test func otherLinesBecomeMarkersAndUnknownTypesAreCounted() throws {
        var h = Handmade()
        h.add(100, "network", "\"change\":\"lost\",\"interface\":\"wlan0\",\"nested\":{\"x\":1}")
        h.add(200, "scenario", "\"name\":\"edge-restart\",\"step\":1,\"action\":\"restart\"")
        h.add(300, "dropped", "\"count\":12,\"wire\":3,\"since\":\"2026-11-29T22:00:00.000Z\"")
        h.add(400, "hologram", "\"x\":1")
        h.add(500, "hologram")
        h.add(600, "state")  // no current: noted, not fatal
        let s = try h.summary()
        #expect(s.markers.map(\.kind) == [.network, .scenario, .dropped])
        #expect(
            s.markers.map(\.label) == [
                "change: lost, interface: wlan0", "name: edge-restart, step: 1, action: restart",
                "the recorder dropped 12 entries (3 wire)",
            ])
        #expect(s.unknownTypes == [NameCount(name: "hologram", count: 2)])
        #expect(s.skipped.map(\.description) == ["line 7: state line without current"])
        #expect(ScenarioMatcher.matches(s).map(\.name) == ["edge-restart"])
    }

    @Test func anEmptyRecordingStillSummarises() throws {
        let s = try Handmade().summary()
        #expect(s.endMs == 0)
        #expect(s.spans == [StateSpan(state: SessionState(.initialized), startMs: 0, endMs: 0, isLast: true)])
        #expect(Headline.sentence(s) == "No reconnects; ended initialized")
        #expect(s.channels.map(\.buckets) == [[0]])
    }

    @Test func pingsAndUnsubscribesFromTheWire() throws {
        var h = Handmade()
        h.state(1, "initialized", "connecting")
        h.state(5, "connecting", "connected")
        h.add(6, "subscribed", "\"channel\":\"news\"")
        h.add(100, "wire", "\"direction\":\"out\",\"text\":\"{\\\"event\\\":\\\"bird:ping\\\",\\\"data\\\":{}}\"")
        h.add(101, "wire", "\"direction\":\"in\",\"text\":\"{\\\"event\\\":\\\"bird:pong\\\",\\\"data\\\":{}}\"")
        h.add(
            200, "wire",
            "\"direction\":\"out\",\"text\":\"{\\\"event\\\":\\\"bird:unsubscribe\\\",\\\"data\\\":{\\\"channel\\\":\\\"news\\\"}}\""
        )
        h.add(5000, "wire", "\"direction\":\"out\",\"text\":\"{\\\"event\\\":\\\"bird:ping\\\",\\\"data\\\":{}}\"")
        h.state(35_000, "connected", "connecting", cause: "pong timeout", code: 4201)
        let s = try h.summary()
        #expect(s.pings == [Ping(atMs: 100, answered: true), Ping(atMs: 5000, answered: false)])
        #expect(s.wireCount == 4)
        // Unsubscribed on purpose: no gap when the connection ends later.
        #expect(s.channels[0].gaps.isEmpty)
        #expect(ScenarioMatcher.matches(s).map(\.name) == ["stale-connection"])
    }

    /// Issue 15: a gap closed by a subscription that recovered lost nothing; one that missed N says N.
    @Test func gapsSayWhatTheResumingSubscriptionRecovered() throws {
        var h = Handmade()
        h.state(1, "initialized", "connecting")
        h.state(5, "connecting", "connected")
        h.add(6, "subscribed", "\"channel\":\"news\",\"continuity\":\"fresh\"")
        for (down, up, continuity) in [
            (1000.0, 2000.0, "\"continuity\":\"recovered\",\"missed\":0,\"offset\":5"),
            (3000, 4000, "\"continuity\":\"missed\",\"missed\":37,\"offset\":9"),
            (5000, 6000, "\"continuity\":\"unknown\",\"reason\":\"epoch changed\""),
            (7000, 8000, ""),
        ] {
            h.state(down, "connected", "connecting", cause: "socket dropped", code: 1006)
            h.state(up - 1, "connecting", "connected")
            h.add(up, "subscribed", "\"channel\":\"news\"" + (continuity.isEmpty ? "" : "," + continuity))
        }
        let s = try h.summary()
        let gaps = s.channels[0].gaps
        #expect(
            gaps.map(\.lossText) == [
                "nothing missed (replayed)", "37 events missed", "events may have been missed", nil,
            ])
        #expect(gaps.map(\.missed) == [0, 37, nil, nil])
        let html = HTMLReport.render(s, source: "continuity.jsonl")
        #expect(html.contains(", 37 events missed)"), "missed in the gap list")
        #expect(html.contains(", nothing missed (replayed)); "), "recovered in the gap list")
        #expect(html.contains(": nothing missed (replayed)</title>"))
        #expect(html.contains(": events published then were not received</title>"))
    }
}
