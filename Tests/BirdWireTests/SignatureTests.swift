import Testing
@testable import BirdWire

@Suite("Signatures")
struct SignatureTests {
    @Test("Pusher's documented private-channel vector")
    func pusherVector() {
        let string = Signature.privateChannelString(connectionId: "1234.1234", channel: "private-foobar")
        #expect(string == "1234.1234:private-foobar")
        #expect(
            Signature.hmacSHA256Hex(key: "7ad3773142a6692b25b8", message: string)
                == "58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4")
        let auth = Signature.auth(appKey: "278d425bdf160c739803", secret: "7ad3773142a6692b25b8", string: string)
        #expect(auth == "278d425bdf160c739803:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4")
        #expect(
            Signature.verify(auth: auth, appKey: "278d425bdf160c739803", secret: "7ad3773142a6692b25b8", string: string)
        )
        #expect(!Signature.verify(auth: auth, appKey: "278d425bdf160c739803", secret: "wrong", string: string))
    }

    @Test("signature strings per kind and dialect")
    func strings() {
        #expect(
            Signature.presenceChannelString(connectionId: "1.2", channel: "presence-a", memberData: "{}")
                == "1.2:presence-a:{}")
        #expect(Signature.signinString(connectionId: "1.2", memberData: "{}", dialect: .bird) == "1.2::member::{}")
        #expect(Signature.signinString(connectionId: "1.2", memberData: "{}", dialect: .pusher) == "1.2::user::{}")
        #expect(Signature.channelString(connectionId: "1.2", channel: "private-a", memberData: nil) == "1.2:private-a")
    }

    @Test("HTTP API string sorts parameters and leaves out the signature")
    func httpAPI() {
        let s = Signature.httpAPIString(
            method: "post", path: "/apps/1/events",
            query: [("auth_version", "1.0"), ("auth_key", "k"), ("auth_signature", "x")])
        #expect(s == "POST\n/apps/1/events\nauth_key=k&auth_version=1.0")
        #expect(Signature.md5Hex([]) == "d41d8cd98f00b204e9800998ecf8427e")
    }
}
