// Every Swift snippet of seeds/swift-sdk-readme.txt and seeds/connection-lifecycle.id.txt,
// pasted unchanged inside functions (docs/PROTOCOL.md § Swift API). Only the `import BirdRealtime` lines are
// hoisted to the top of this file (Swift allows imports only there); names a snippet uses from an
// earlier one (`bird`, `orders`, `room`) are parameters; the app functions the snippets call
// (`showReconnectingBanner()` …) are stubs below. The README's two Package.swift fragments
// (`.package(url:…)`, `.target(…)`) are manifest code for PackageDescription, not library code,
// and are checked by the package manifest itself rather than here.
// If this file stops compiling, the public API no longer matches the seeds.

import BirdRealtime
import Foundation
import Testing

// MARK: - Stubs for the app code the snippets call

func showReconnectingBanner() {}
func hideReconnectingBanner() {}
func showSignedOutScreen() {}
func renderMembers(_ members: [String: JSONValue]) {}

// MARK: - seeds/swift-sdk-readme.txt

/// README, "Quickstart".
func readmeQuickstart() {
    let bird = BirdRealtime(
        options: .init(
            appKey: "your-app-key",
            region: "us1"  // us1 | eu1, picks the edge automatically
        ))

    let orders = bird.subscribe("orders")
    orders.bind("order-updated") { data in
        print("order changed:", data ?? "")
    }

    bird.onConnectionStateChange { previous, current in
        print("connection: \(previous) → \(current)")
    }
    bird.onError { error in
        print("realtime error:", error.message)
    }
}

/// README, "Private and presence channels".
func readmePresence() {
    let bird = BirdRealtime(
        options: .init(
            appKey: "your-app-key",
            region: "us1",
            authEndpoint: URL(string: "https://your-backend.example.com/bird/auth")!,
            authHeaders: ["authorization": "Bearer <session token>"]
        ))

    guard let room = bird.subscribe("presence-room-42") as? PresenceChannel else { return }
    room.bind(BirdProtocol.Event.subscriptionSucceeded) { _ in
        print("me:", room.myId ?? "?", "members:", room.members.keys)
    }
    room.bind(BirdProtocol.Event.memberAdded) { member in
        print("joined:", member ?? "")
    }
}

/// README, "Signing in a member".
func readmeSignin() async throws {
    let bird = BirdRealtime(
        options: .init(
            appKey: "your-app-key",
            region: "us1",
            memberAuthEndpoint: URL(string: "https://your-backend.example.com/bird/auth/member")!
        ))

    let me = try await bird.signin()  // call once; survives reconnects
    print("signed in as", me.memberId)

    bird.onSigninError { error in
        print("re-signin failed:", error.message)  // still connected, no identity
    }
}

/// README, "Events addressed to a member".
func readmeMemberEvents(bird: BirdRealtime) async throws {
    _ = try await bird.signin()

    bird.member.bind("order.shipped") { data in
        print("your order moved:", data ?? "")
    }
}

/// README, "Client events".
func readmeClientEvents(room: PresenceChannel) throws {
    try room.trigger("client-typing", data: ["on": true])
}

/// README, "Connection counting".
func readmeConnectionCounting(orders: BirdRealtime.Channel) {
    orders.bind(BirdProtocol.Event.connectionCount) { data in
        print("connections:", data ?? "")
    }
}

// MARK: - seeds/connection-lifecycle.id.txt

/// "Enam state".
func lifecycleStates() {
    let bird = BirdRealtime(options: .init(appKey: "your-app-key", region: "us1"))

    bird.onConnectionStateChange { previous, current in
        print(previous, "->", current)
        if current == .unavailable { showReconnectingBanner() }
        if current == .connected { hideReconnectingBanner() }
    }
}

/// "Apa yang terjadi pada channel Anda": sign-in errors.
func lifecycleSigninError(bird: BirdRealtime) {
    bird.onSigninError { error in
        print("connection has no identity:", error.message)
    }
}

/// "Apa yang terjadi pada channel Anda": refresh on subscription_succeeded.
func lifecycleRenderMembers(bird: BirdRealtime) {
    guard let room = bird.subscribe("presence-room-1") as? PresenceChannel else { return }

    room.bind(BirdProtocol.Event.subscriptionSucceeded) { _ in
        renderMembers(room.members)
    }
}

/// "Memutus koneksi secara sengaja".
func lifecycleDisconnect(bird: BirdRealtime) {
    bird.disconnect()  // state: disconnected, no reconnect
    bird.connect()  // reopens and re-subscribes
}

/// "Error pada koneksi versus error pada channel": channel errors.
func lifecycleChannelError(room: PresenceChannel) {
    room.bind(BirdProtocol.Event.subscriptionError) { error in
        print("could not join:", error ?? "")
    }
}

/// "Error pada koneksi versus error pada channel": connection errors.
func lifecycleConnectionError(bird: BirdRealtime) {
    bird.onError { error in
        print(error.code ?? 0, error.message)
    }
}

/// "Menangani close code 4009".
func lifecycle4009(bird: BirdRealtime) {
    bird.onError { error in
        if error.code == 4009 { showSignedOutScreen() }
    }
}

@Suite("Seed snippets")
struct SeedSnippetsTests {
    @Test("every seed snippet compiles against the library (this file is the check)")
    func compiled() {
        let snippets: [Any] = [
            readmeQuickstart, readmePresence, readmeSignin, readmeMemberEvents, readmeClientEvents,
            readmeConnectionCounting, lifecycleStates, lifecycleSigninError, lifecycleRenderMembers,
            lifecycleDisconnect, lifecycleChannelError, lifecycleConnectionError, lifecycle4009,
        ]
        #expect(snippets.count == 13)
    }

    @Test("qualified names work through the class as well as the module")
    func qualifiedNames() {
        let state: BirdRealtime.ConnectionState = .connected
        let value: BirdRealtime.JSONValue = ["on": true]
        #expect(state == ConnectionState.connected)
        #expect(value["on"] == true)
        #expect(BirdRealtime.PresenceChannel.self == PresenceChannel.self)
        let options = BirdRealtime.Options(appKey: "k")
        #expect(options.region == "us1")
        #expect(
            options.activityTimeout == .seconds(120) && options.pongTimeout == .seconds(30)
                && options.subscribeTimeout == .seconds(10))
        #expect(options.dialect == .bird)
    }
}
