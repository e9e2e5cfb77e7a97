// swift-tools-version:6.0
// BirdRealtime for Swift: the client library, the bird-inspect terminal inspector and the
// bird-sandbox local edge. See docs/ARCHITECTURE.md for how the targets fit together.
import PackageDescription

let package = Package(
    name: "bird-sdk-swift",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "BirdRealtime", targets: ["BirdRealtime"]),
        .library(name: "BirdRealtimeTestSupport", targets: ["BirdRealtimeTestSupport"]),
        .executable(name: "bird-inspect", targets: ["bird-inspect"]),
        .executable(name: "bird-sandbox", targets: ["bird-sandbox"]),
    ],
    targets: [
        // System C libraries (no outside Swift packages can be fetched on our machines).
        .systemLibrary(
            name: "COpenSSL", path: "Modules/COpenSSL", pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]),
        .systemLibrary(
            name: "CNcurses", path: "Modules/CNcurses",
            providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(
            name: "CSodium", path: "Modules/CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]),
        // Linux headers Glibc's module lacks (epoll/eventfd for the event loop, rtnetlink for the
        // network path monitor); no link.
        .systemLibrary(name: "CLinux", path: "Modules/CLinux"),

        // What a connection probe finds at the TLS and upgrade layers, as plain values: reported by
        // WebSocket's ConnectionProbe, judged by BirdDoctor (which must not depend on WebSocket).
        .target(name: "ProbeFacts"),
        // RFC 6455 client and server over POSIX sockets, TLS via OpenSSL, plus a small HTTP/1.1 client.
        .target(
            name: "WebSocket",
            dependencies: [
                "COpenSSL", "ProbeFacts", .target(name: "CLinux", condition: .when(platforms: [.linux])),
            ]),
        // The protocol model shared by the client and the sandbox.
        .target(name: "BirdWire", dependencies: ["COpenSSL", "CSodium"], linkerSettings: [.linkedLibrary("m")]),
        // The client library.
        .target(
            name: "BirdRealtime",
            dependencies: ["BirdWire", "WebSocket", .target(name: "CLinux", condition: .when(platforms: [.linux]))]),
        // Manual clock and scripted transport for tests (ours and users').
        .target(name: "BirdRealtimeTestSupport", dependencies: ["BirdRealtime", "BirdWire"]),
        // The recording format (docs/RECORDING.md): writer, streaming reader, version check, line
        // types, `ts` splicing — for the inspector, the sandbox's replay and the report.
        .target(name: "BirdRecording", dependencies: ["BirdWire"]),
        // The flag reader and error type of bird-inspect's parsers (inspector, doctor, report), and
        // the tools' stdout/stderr writer (a closed pipe ends a tool cleanly, never a trap).
        .target(name: "BirdCommandLine"),
        // The local edge.
        .target(
            name: "BirdSandbox",
            dependencies: ["BirdWire", "BirdRecording", "BirdCommandLine", "WebSocket", "COpenSSL"]),
        // The inspector's pure core: model, messages, update, view into a cell grid, key map; the
        // library's callbacks mapped to its messages.
        .target(
            name: "BirdInspector", dependencies: ["BirdRealtime", "BirdWire", "BirdRecording", "BirdCommandLine"]),

        // `bird-inspect doctor`: options, per-layer verdicts and hints, human and JSON reports (pure)…
        .target(name: "BirdDoctor", dependencies: ["BirdWire", "ProbeFacts", "BirdCommandLine"]),
        // …and the runner that checks each layer with ConnectionProbe and HTTPClient.
        .target(name: "BirdDoctorRunner", dependencies: ["BirdDoctor", "BirdWire", "WebSocket"]),
        // `bird-inspect report`: a recording read into a session summary, matched against the
        // built-in scenarios and rendered as one self-contained HTML page (pure).
        .target(name: "BirdReport", dependencies: ["BirdWire", "BirdRecording", "BirdCommandLine"]),

        .executableTarget(
            name: "bird-inspect",
            dependencies: [
                "BirdInspector", "BirdRealtime", "BirdRecording", "BirdSandbox", "WebSocket", "CNcurses",
                "BirdDoctor", "BirdDoctorRunner", "BirdReport", "BirdCommandLine",
            ]),
        .executableTarget(name: "bird-sandbox", dependencies: ["BirdSandbox"]),
        // Developer tools: the Autobahn|Testsuite / benchmark agent and the libFuzzer harnesses
        // (built with -DFUZZING by Scripts/fuzz; a plain build gives a binary that explains itself).
        .executableTarget(name: "websocket-agent", dependencies: ["WebSocket", "BirdCommandLine"]),
        .executableTarget(
            name: "bird-fuzz",
            dependencies: [
                "WebSocket", "BirdWire", "BirdRecording", "BirdSandbox", "BirdRealtime", "BirdRealtimeTestSupport",
                "BirdInspector",
            ]),
        // The fan-out load generator's pieces (bird-bench fanout): protocol and WebSocket layers as
        // values, one epoll thread for thousands of connections, percentiles.
        .target(
            name: "BirdLoadGen",
            dependencies: ["BirdWire", "WebSocket", .target(name: "CLinux", condition: .when(platforms: [.linux]))]),
        .executableTarget(
            name: "bird-bench",
            dependencies: ["BirdLoadGen", "BirdRealtime", "BirdSandbox", "BirdWire", "BirdCommandLine"]),
        // Watches the network path (rtnetlink), records netlink fixtures, runs the namespace drills
        // (the monitor alone, and a real client against an embedded sandbox).
        .executableTarget(name: "bird-netcheck", dependencies: ["BirdRealtime", "BirdSandbox", "BirdCommandLine"]),

        // Helpers shared by the test targets (raw sockets, throw-away certificates, Python peers,
        // the built tools): one copy each, Foundation and Testing only.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "WebSocketTests", dependencies: ["WebSocket", "TestSupport"], exclude: ["Peers"]),
        .testTarget(name: "BirdWireTests", dependencies: ["BirdWire", "TestSupport"]),
        .testTarget(name: "BirdRecordingTests", dependencies: ["BirdRecording", "BirdWire", "TestSupport"]),
        .testTarget(
            name: "BirdRealtimeTests",
            dependencies: ["BirdRealtime", "BirdRealtimeTestSupport", "BirdWire", "TestSupport"],
            exclude: ["NetlinkRecordings"]),
        .testTarget(
            name: "BirdSandboxTests",
            dependencies: ["BirdSandbox", "BirdRecording", "BirdWire", "WebSocket", "TestSupport"]),
        .testTarget(
            name: "BirdInspectorTests",
            dependencies: ["BirdInspector", "BirdRecording", "BirdRealtime", "BirdRealtimeTestSupport", "BirdWire"],
            exclude: ["Snapshots"]),
        .testTarget(name: "BirdLoadGenTests", dependencies: ["BirdLoadGen", "BirdWire"]),
        .testTarget(
            name: "BirdDoctorTests",
            dependencies: ["BirdDoctor", "BirdDoctorRunner", "BirdSandbox", "BirdWire", "WebSocket", "TestSupport"]),
        .testTarget(
            name: "BirdReportTests",
            dependencies: ["BirdReport", "BirdRecording", "BirdSandbox", "BirdWire", "TestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "BirdRealtime", "BirdRealtimeTestSupport", "BirdSandbox", "BirdWire", "WebSocket", "TestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
