import BirdWire
import Foundation

/// The built-in scenarios of `bird-sandbox --scenario NAME` (docs/SCENARIOS.md says what a
/// correct client does in each).
public enum ScenarioCatalogue {
    /// Every built-in, in `--help` order.
    public static let all: [Scenario] = [
        Scenario(
            name: "flaky-network",
            description: "random TCP drops and silences every 2–6 s, forever (seeded)",
            loop: true, seed: 42,
            steps: [
                .init(after: .between(2, 6), .drop(.random)),
                .init(after: .between(2, 6), .silence(.random)),
                .init(after: .between(2, 6), .drop(.random)),
            ]),
        Scenario(
            name: "edge-restart",
            description: "after 3 s: close all with 4200 and stay down (not listening) for 5 s",
            steps: [
                .init(
                    after: .fixed(3),
                    .restart(code: CloseCode.edgeRestarting, reason: "edge restarting", downSeconds: 5))
            ]),
        Scenario(
            name: "over-capacity",
            description: "after 3 s: close all with 4100 and refuse new connections with 4100 for 15 s",
            steps: [
                .init(after: .fixed(3), .refuse(code: 4100, reason: "over capacity", seconds: 15)),
                .init(after: .fixed(0), .closeAll(code: 4100, reason: "over capacity")),
                .init(after: .fixed(15), .accept),
            ]),
        Scenario(
            name: "terminated-member",
            description: "after 3 s: 4009 \"terminated by the app\" to signed-in members (every connection if none)",
            steps: [.init(after: .fixed(3), .terminate(.signedIn))]),
        Scenario(
            name: "stale-connection",
            description: "after 3 s: every connection goes silent (no reads, no answers)",
            steps: [.init(after: .fixed(3), .silence(.all))]),
        Scenario(
            name: "auth-outage",
            description: "after 2 s: auth endpoints answer 503 and every connection gets 4200; recovers 30 s later",
            steps: [
                .init(after: .fixed(2), .authFailure(status: 503, prefix: nil)),
                .init(after: .fixed(0), .closeAll(code: CloseCode.edgeRestarting, reason: "edge restarting")),
                .init(after: .fixed(30), .authRecover),
                .init(after: .fixed(0), .closeAll(code: CloseCode.edgeRestarting, reason: "edge restarting")),
            ]),
        Scenario(
            name: "outage-publish",
            description:
                "edge down 3 s twice while demo-orders is published to: 5 events (resumed: recovered) "
                + "then 1,500 (more than the history holds: missed, counted)",
            steps: [
                .init(
                    after: .fixed(3),
                    .restart(code: CloseCode.edgeRestarting, reason: "edge restarting", downSeconds: 3)),
                .init(
                    after: .fixed(0.5),
                    .publish(channel: "demo-orders", event: "while-down", data: ["part": 1], count: 5)),
                // 30 s apart: even a long backoff after the first outage ends before the second.
                .init(
                    after: .fixed(30),
                    .restart(code: CloseCode.edgeRestarting, reason: "edge restarting", downSeconds: 3)),
                .init(
                    after: .fixed(0.5),
                    .publish(channel: "demo-orders", event: "while-down", data: ["part": 2], count: 1_500)),
            ]),
        Scenario(
            name: "rate-limited-client-events",
            description: "after 3 s: error 4301 (client event rate limit) to every connection; no close",
            steps: [
                .init(
                    after: .fixed(3),
                    .error(
                        .all, code: 4301,
                        message: "rate limit: more than \(Limits.clientEventsPerSecond) client events per second"))
            ]),
    ]

    /// The built-in named `name`.
    public static func named(_ name: String) -> Scenario? {
        all.first { $0.name == name }
    }

    /// A built-in name, or else a path to a scenario file.
    public static func load(_ nameOrPath: String) throws(ScenarioError) -> Scenario {
        if let builtIn = named(nameOrPath) { return builtIn }
        let names = all.map(\.name).joined(separator: ", ")
        guard FileManager.default.fileExists(atPath: nameOrPath) else {
            throw ScenarioError("unknown scenario '\(nameOrPath)': not a built-in (\(names)) nor a file")
        }
        let text: String
        do {
            text = try String(contentsOfFile: nameOrPath, encoding: .utf8)
        } catch {
            throw ScenarioError("\(nameOrPath): cannot read the file")
        }
        do {
            return try Scenario(json: text)
        } catch {
            throw ScenarioError("\(nameOrPath): \(error.message)")
        }
    }
}
