import BirdRealtime
import BirdRealtimeTestSupport
import Foundation
import Testing

@Suite("Presence roster")
struct PresenceTests {
    @Test("roster from subscription_succeeded; added/removed once per member; myId; count; reset on drop")
    func roster() async throws {
        let h = Harness()
        let room = try #require(h.bird.subscribe("presence-room") as? PresenceChannel)
        let added = TestBox<[String]>([])
        let removed = TestBox<[String]>([])
        let succeeded = TestBox<[JSONValue?]>([])
        room.bind(BirdProtocol.Event.memberAdded) { data in
            added.mutate { $0.append(data?["member_id"]?.stringValue ?? "?") }
        }
        room.bind(BirdProtocol.Event.memberRemoved) { data in
            removed.mutate { $0.append(data?["member_id"]?.stringValue ?? "?") }
        }
        room.bind(BirdProtocol.Event.subscriptionSucceeded) { data in succeeded.mutate { $0.append(data) } }
        let socket = try await h.connect()
        let subscribe = try #require(socket.sent(event: "bird:subscribe").first)
        let memberData = try #require(subscribe.data?.value["member_data"]?.stringValue)
        #expect(JSONValue.fromPayload(memberData)["member_id"]?.stringValue == "me")
        try await h.succeed(
            "presence-room",
            data: ["presence": ["ids": ["me", "a"], "hash": ["me": ["name": "Me"], "a": ["name": "A"]], "count": 2]])
        #expect(room.members.count == 2)
        #expect(room.members["a"]?["name"]?.stringValue == "A")
        #expect(room.myId == "me")
        #expect(room.count == 2)
        #expect(succeeded.get.first??["members"]?["a"]?["name"]?.stringValue == "A")

        socket.receive(
            event: "bird_internal:member_added", channel: "presence-room",
            data: ["member_id": "b", "member_info": ["name": "B"]])
        socket.receive(
            event: "bird_internal:member_added", channel: "presence-room",
            data: ["member_id": "b", "member_info": ["name": "B"]])
        socket.receive(event: "bird_internal:member_removed", channel: "presence-room", data: ["member_id": "a"])
        socket.receive(event: "bird_internal:member_removed", channel: "presence-room", data: ["member_id": "zzz"])
        await h.settle()
        #expect(added.get == ["b"])
        #expect(removed.get == ["a"])
        #expect(Set(room.members.keys) == ["me", "b"])
        #expect(room.count == 2)

        socket.serverClose(code: 1006)
        await h.settle()
        #expect(room.members.isEmpty)
        #expect(room.myId == nil)
        await h.advance(.seconds(1))
        try await h.connect(id: "2.2")
        try await h.succeed("presence-room", data: ["presence": ["ids": ["me"], "hash": ["me": nil], "count": 1]])
        #expect(Array(room.members.keys) == ["me"])
        #expect(room.myId == "me")
    }

    @Test("pusher dialect member events are delivered with Bird keys")
    func pusherMembers() async throws {
        let h = Harness(dialect: .pusher)
        let room = try #require(h.bird.subscribe("presence-room") as? PresenceChannel)
        let added = TestBox<[JSONValue?]>([])
        room.bind(BirdProtocol.Event.memberAdded) { data in added.mutate { $0.append(data) } }
        let socket = try await h.connect()
        try await h.succeed("presence-room", data: ["presence": ["ids": ["me"], "hash": ["me": nil], "count": 1]])
        socket.receive(
            event: "pusher_internal:member_added", channel: "presence-room",
            data: ["user_id": "u2", "user_info": ["n": 1]])
        await h.settle()
        #expect(added.get.first??["member_id"]?.stringValue == "u2")
        #expect(added.get.first??["member_info"]?["n"]?.intValue == 1)
        #expect(room.members["u2"]?["n"]?.intValue == 1)
    }

    @Test("a member event without an id is reported, not applied")
    func memberWithoutId() async throws {
        let h = Harness()
        let room = try #require(h.bird.subscribe("presence-room") as? PresenceChannel)
        let socket = try await h.connect()
        try await h.succeed("presence-room", data: ["presence": ["ids": [], "hash": [:], "count": 0]])
        socket.receive(event: "bird_internal:member_added", channel: "presence-room", data: ["member_info": 1])
        await h.settle()
        #expect(room.members.isEmpty)
        #expect(h.recorder.errors.map(\.kind) == [.missingField])
    }
}
