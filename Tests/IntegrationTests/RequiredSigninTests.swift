import BirdRealtime
import BirdSandbox
import Foundation
import Testing

/// The two 4009 cases of docs/PROTOCOL.md § Close and error codes, over real sockets: sign-in required and not done in
/// time, and `terminate_connections` for a member.
extension Integration {
    @Suite(.serialized) struct RequiredSigninTests {
        @Test("an app requiring sign-in closes an unsigned connection with 4009: failed, no retry")
        func unsignedConnectionRefused() async throws {
            let sandbox = try SandboxFixture { $0.requireSigninSeconds = 1 }
            defer { sandbox.stop() }
            let client = ClientFixture(sandbox: sandbox)
            let recorder = client.recorder
            guard await client.connected() != nil else { return }
            await eventually("failed after the sign-in deadline") { client.state == .failed }
            await client.bird.settle()
            let changes = recorder.changesAfterStart
            #expect(changes.map(\.current) == [.connected, .failed], "\(changes)")
            #expect(changes.last?.cause == .serverClose(code: 4009, reason: "sign-in required"))
            #expect(recorder.retries.isEmpty)
            #expect(recorder.errors.count == 1)
            #expect(recorder.errors.first?.code == 4009)
            #expect(recorder.errors.first?.kind == .refused)
            #expect(recorder.errors.first?.reason == "sign-in required")
            await eventually("no connection on the sandbox") { sandbox.sandbox.connections().isEmpty }
            #expect(client.state == .failed)
        }

        @Test("a signed-in client stays; terminate closes every connection of that member with 4009")
        func terminateMember() async throws {
            let sandbox = try SandboxFixture { $0.requireSigninSeconds = 5 }
            defer { sandbox.stop() }
            let bob1 = ClientFixture(sandbox: sandbox, member: "bob")
            let bob2 = ClientFixture(sandbox: sandbox, member: "bob")
            let carol = ClientFixture(sandbox: sandbox, member: "carol")
            for client in [bob1, bob2, carol] {
                guard await client.connected() != nil else { return }
                _ = try await client.bird.signin()
            }
            let carolId = carol.bird.connectionId
            await eventually("three signed-in connections") {
                sandbox.sandbox.connections().filter { $0.memberId != nil }.count == 3
            }
            #expect(sandbox.sandbox.terminate(memberId: "bob") == 2)
            for bob in [bob1, bob2] {
                await eventually("bob failed") { bob.state == .failed }
                await bob.bird.settle()
                let error = bob.recorder.errors.last
                #expect(error?.code == 4009)
                #expect(error?.kind == .refused)
                #expect(error?.reason == "terminated by the app")
                #expect(bob.recorder.retries.isEmpty)
                #expect(bob.recorder.changes.last?.cause == .serverClose(code: 4009, reason: "terminated by the app"))
            }
            await eventually("only carol remains") {
                sandbox.sandbox.connections().map(\.memberId) == ["carol"]
            }
            // Carol is untouched.
            #expect(carol.state == .connected)
            #expect(carol.bird.connectionId == carolId)
            #expect(carol.recorder.errors.isEmpty)
            await carol.shutdown()
        }
    }
}
