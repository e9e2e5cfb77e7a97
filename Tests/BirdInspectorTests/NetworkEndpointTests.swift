// Issue 15 in the inspector: the library's network path and endpoint reports, and the causes
// they bring, through ClientFeed and update to the Connection pane and the event log.

import BirdRecording
import Foundation
import Testing

@testable import BirdInspector
@testable import BirdRealtime

@Suite("Network path and endpoint in the inspector (issue 15)")
struct NetworkEndpointTests {
    let eth0 = NetworkPath(
        defaultRoutes: [DefaultRoute(family: .ipv4, interface: "eth0", gateway: "192.0.2.1")],
        generation: 1)
    let none = NetworkPath(defaultRoutes: [], generation: 2)

    func connected(_ h: inout Harness) {
        feed(&h, .stateChange(StateChange(previous: .initialized, current: .connecting, cause: .start)), at: 0)
        feed(
            &h,
            .stateChange(
                StateChange(
                    previous: .connecting, current: .connected, cause: .handshake,
                    connectionId: "1.2")), at: 0.1)
    }

    @Test("the library's path becomes a network record: usable and its description")
    func pathMapping() {
        #expect(
            ClientFeed.item(.networkPath(eth0), recording: false)
                == .client(.networkPath(NetworkPathRecord(usable: true, description: "default via eth0 (IPv4)"))))
        #expect(
            ClientFeed.item(.networkPath(none), recording: false)
                == .client(.networkPath(NetworkPathRecord(usable: false, description: "no default route"))))
        // An unknown path counts as usable, as the library counts it.
        #expect(
            ClientFeed.item(.networkPath(.unknown("netlink refused")), recording: false)
                == .client(.networkPath(NetworkPathRecord(usable: true, description: "unknown: netlink refused"))))
    }

    @Test("the Connection pane has a network line: the note until a path is reported, then up or down")
    func networkLine() {
        var h = Harness(size: Size(width: 200, height: 50))
        h.model.config.networkNote = "not monitored (loopback edge)"
        #expect(connectionText(h).contains("network: not monitored (loopback edge)"), "\(connectionText(h))")
        feed(&h, .networkPath(eth0), at: 0)
        #expect(connectionText(h).contains("network: up · default via eth0 (IPv4)"), "\(connectionText(h))")
        feed(&h, .networkPath(none), at: 1)
        #expect(connectionText(h).contains("network: down · no default route"), "\(connectionText(h))")
        #expect(h.render().lines.last { $0.contains("◆ network") }?.contains("down · no default route") == true)
    }

    @Test("no network: 'waiting for network' instead of the countdown, which the lost network cancelled")
    func waitingForNetwork() {
        var h = Harness(size: Size(width: 200, height: 50))
        connected(&h)
        feed(&h, .stateChange(StateChange(previous: .connected, current: .unavailable, cause: .dropped)), at: 1)
        feed(&h, .retryScheduled(RetrySchedule(delay: .seconds(8), attempt: 3, cause: .dropped, at: t0)), at: 1)
        #expect(connectionText(h).contains("attempt 3 in 8.0s"), "\(connectionText(h))")

        // The route goes: the library cancels the retry (unavailable → unavailable, no network).
        feed(&h, .networkPath(none), at: 2)
        feed(
            &h,
            .stateChange(
                StateChange(
                    previous: .unavailable, current: .unavailable,
                    cause: .networkUnavailable("no default route"))), at: 2)
        h.tick(3)
        let text = connectionText(h)
        #expect(h.model.connection.waitingForNetwork)
        #expect(h.model.connection.nextAttemptAt == nil)
        #expect(text.contains("waiting for network"), "\(text)")
        #expect(!text.contains("attempt 3"), "the cancelled countdown is gone: \(text)")
        #expect(text.contains("no network (no default route): waiting for it"), "\(text)")

        // The route comes back: connecting at once, with the cause saying so.
        feed(&h, .networkPath(eth0), at: 4)
        feed(
            &h,
            .stateChange(
                StateChange(
                    previous: .unavailable, current: .connecting,
                    cause: .networkRestored("default via eth0 (IPv4)"))), at: 4)
        #expect(!h.model.connection.waitingForNetwork)
        #expect(!connectionText(h).contains("waiting for network"))
        #expect(
            connectionText(h).contains("network back (default via eth0 (IPv4)): connecting at once"),
            "\(connectionText(h))")
    }

    @Test("the network and endpoint causes have their own inspector causes and texts")
    func causes() {
        let pairs: [(StateChangeCause, TransitionCause, String)] = [
            (
                .networkUnavailable("no default route"), .networkUnavailable("no default route"),
                "no network (no default route): waiting for it"
            ),
            (
                .networkRestored("default via eth0 (IPv4)"), .networkRestored("default via eth0 (IPv4)"),
                "network back (default via eth0 (IPv4)): connecting at once"
            ),
            (
                .networkChanged("default via wlan0 (IPv6)"), .networkChanged("default via wlan0 (IPv6)"),
                "network changed (default via wlan0 (IPv6)): connecting at once"
            ),
            (
                .endpointUnavailable("endpoint provider did not answer within 10 s"),
                .endpointUnavailable("endpoint provider did not answer within 10 s"),
                "endpoint unavailable: endpoint provider did not answer within 10 s"
            ),
        ]
        for (library, inspector, text) in pairs {
            #expect(ClientFeed.cause(library) == inspector, "\(library)")
            #expect(inspector.text == text)
            #expect(inspector.closeCode == nil)
        }
    }

    @Test("endpoint: resolving while the provider is asked, then its answer; a failure backs off, said so")
    func endpoint() {
        var h = Harness(size: Size(width: 200, height: 50))
        feed(&h, .stateChange(StateChange(previous: .initialized, current: .connecting, cause: .start)), at: 0)
        feed(&h, .endpoint(.resolving), at: 0)
        #expect(connectionText(h).contains("edge: resolving endpoint…"), "\(connectionText(h))")

        let answer = EndpointResolution.resolved(
            endpoint: RealtimeEndpoint(host: "edge-7.example.net", port: 8443, useTLS: true),
            url: "wss://edge-7.example.net:8443/app/k?protocol=7&client=swift&token=s3cret", headerNames: ["X-Session"])
        #expect(
            ClientFeed.item(.endpoint(answer), recording: false)
                == .client(
                    .endpoint(
                        .resolved(
                            host: "edge-7.example.net", port: 8443, tls: true,
                            url: "wss://edge-7.example.net:8443/app/k",
                            headerNames: ["X-Session"]))))
        feed(&h, .endpoint(answer), at: 0.1)
        var text = connectionText(h)
        #expect(text.contains("edge: edge-7.example.net:8443 · TLS on · bird"), "\(text)")
        #expect(text.contains("headers X-Session"), "\(text)")
        #expect(!text.contains("127.0.0.1:6001"), "the provider's answer, not the static host: \(text)")
        #expect(
            h.render().lines.last { $0.contains("◆ endpoint") }?.contains("resolved edge-7.example.net:8443 · TLS on")
                == true)

        // The next attempt's provider hangs: the client backs off with the cause naming it.
        feed(&h, .endpoint(.resolving), at: 5)
        feed(&h, .endpoint(.failed("endpoint provider did not answer within 10 s")), at: 15)
        feed(
            &h,
            .stateChange(
                StateChange(
                    previous: .connecting, current: .unavailable,
                    cause: .endpointUnavailable("endpoint provider did not answer within 10 s"))), at: 15)
        text = connectionText(h)
        #expect(text.contains("edge: endpoint unavailable: endpoint provider did not answer within 10 s"), "\(text)")
        #expect(text.contains("cause: endpoint unavailable: endpoint provider did not answer"), "\(text)")
        #expect(!h.render().lines.joined().contains("s3cret"))
    }

    @Test("a default port is the one TLS implies; an IPv6 host is bracketed")
    func hostPort() {
        #expect(EndpointRecord.hostPort(host: "h", port: nil, tls: true) == "h:443")
        #expect(EndpointRecord.hostPort(host: "h", port: nil, tls: false) == "h:80")
        #expect(EndpointRecord.hostPort(host: "::1", port: 6001, tls: false) == "[::1]:6001")
    }

    @Test("network and endpoint lines: their keys, secrets and query strings left out, free text redacted")
    func lines() {
        #expect(
            JSONLines.line(.networkPath(NetworkPathRecord(usable: false, description: "no default route")), at: t0)
                == #"{"ts":"2023-11-14T22:13:20.000Z","type":"network","usable":false,"path":"no default route"}"#)
        #expect(
            JSONLines.line(.endpoint(.resolving), at: t0)
                == #"{"ts":"2023-11-14T22:13:20.000Z","type":"endpoint","phase":"resolving"}"#)
        let resolved = JSONLines.line(
            .endpoint(
                .resolved(
                    host: "e.example", port: nil, tls: true,
                    url: "wss://e.example/app/k?token=s3cret", headerNames: ["A", "B"])), at: t0)
        #expect(
            resolved
                == #"{"ts":"2023-11-14T22:13:20.000Z","type":"endpoint","phase":"resolved","host":"e.example","tls":true,"endpoint":"wss://e.example/app/k","headers":["A","B"]}"#
        )
        let failed = JSONLines.line(
            .endpoint(.failed("endpoint provider failed: GET https://x/ep?token=s3cret: 500")), at: t0)
        #expect(
            failed.contains(#""phase":"failed""#) && failed.contains("https://x/ep") && !failed.contains("s3cret"),
            "\(failed)")
    }
}
