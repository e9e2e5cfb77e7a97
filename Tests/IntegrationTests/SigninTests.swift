import BirdRealtime
import BirdWire
import Foundation
import Testing
import TestSupport

/// docs/PROTOCOL.md § Sign-in (sign-in across reconnects) against the sandbox's member endpoint.
extension Integration {
    @Suite(.serialized) struct SigninTests {
        @Test(
            "sign-in survives 10 reconnects; member events arrive after each; a failing member endpoint reaches onSigninError only"
        )
        func signinAcrossReconnects() async throws {
            let sandbox = try SandboxFixture()
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox, member: "alice")
            let recorder = client.recorder
            let news = client.bird.subscribe("news")
            let newsEvents = Box<[JSONValue?]>([])
            news.bind("headline") { data in newsEvents.withLock { $0.append(data) } }
            guard var id = await client.connected() else { return }
            let member = try await client.bird.signin()
            #expect(member.memberId == "alice")
            let memberChannel = "#server-to-member-alice"

            for round in 0..<10 {
                if round > 0 {
                    switch round % 3 {
                    case 0: #expect(sandbox.sandbox.closeConnection(id: id, code: 4200, reason: "round \(round)"))
                    case 1: #expect(sandbox.sandbox.drop(id: id))
                    default: #expect(sandbox.sandbox.closeConnection(id: id, code: 1001, reason: "round \(round)"))
                    }
                    guard let next = await client.connected(other: id) else { return }
                    id = next
                }
                let current = id
                await eventually("round \(round): signed in again on \(current)") {
                    let info = sandbox.connection(current)
                    return info?.memberId == "alice" && info?.channels.contains(memberChannel) == true
                        && info?.channels.contains("news") == true
                }
                // The sandbox records the sign-in before its signin_success reaches the client.
                await eventually("round \(round): the client knows its member again") {
                    client.bird.currentMember?.memberId == "alice"
                }
                let mark = recorder.mark
                #expect(
                    sandbox.sandbox.publish(
                        channel: memberChannel, event: "note", data: ["round": .number(JSONNumber(round))]) == 1)
                #expect(
                    sandbox.sandbox.publish(
                        channel: "news", event: "headline", data: ["round": .number(JSONNumber(round))]) == 1)
                await eventually("round \(round): member event delivered") {
                    recorder.memberEvents(since: mark).contains {
                        $0.name == "note" && $0.data?["round"]?.intValue == round
                    }
                }
                await eventually("round \(round): channel event delivered") {
                    newsEvents.snapshot.contains { $0?["round"]?.intValue == round }
                }
            }
            #expect(recorder.signinErrors.isEmpty, "\(recorder.signinErrors)")
            #expect(Set(recorder.connectedIds).count == 10)

            // The member endpoint starts failing: the next connection's sign-in fails.
            sandbox.sandbox.setAuthFailure(status: 503)
            let mark = recorder.mark
            #expect(sandbox.sandbox.closeConnection(id: id, code: 4200, reason: "after failure"))
            guard let failedId = await client.connected(other: id) else { return }
            await eventually("onSigninError after the member endpoint failed") {
                !recorder.signinErrors(since: mark).isEmpty
            }
            let signinError = recorder.signinErrors(since: mark).first
            let authError = signinError as? RealtimeAuthError
            #expect(authError?.status == 503, "\(String(describing: signinError))")
            #expect(authError?.endpoint.contains("/auth/member") == true)
            #expect(
                recorder.errors(since: mark).isEmpty,
                "sign-in failures never reach onError: \(recorder.errors(since: mark))")
            // Channel subscriptions are untouched.
            await client.subscribed(["news"])
            await eventually("news subscribed on the sandbox without a member") {
                let info = sandbox.connection(failedId)
                return info?.channels == ["news"] && info?.memberId == nil
            }
            #expect(client.bird.currentMember == nil)
            #expect(client.state == .connected)
            #expect(sandbox.sandbox.publish(channel: "news", event: "headline", data: ["round": 99]) == 1)
            await eventually("channel event after the sign-in failure") {
                newsEvents.snapshot.contains { $0?["round"]?.intValue == 99 }
            }
            await client.shutdown()
        }
    }
}
