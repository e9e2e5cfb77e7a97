import BirdDoctor
import BirdWire
import Foundation
import Testing

/// The human and JSON reports, exit codes, and the redaction of everything secret.
@Suite struct RenderingTests {
    let target = DoctorTarget(
        host: "127.0.0.1", port: 6001, tls: false, appKey: "sandbox-key",
        authEndpoint: "http://127.0.0.1:6001/auth?token=tok-abcdef",
        authHeaders: [HeaderLine(name: "X-Session", value: "sess-123456")],
        knownSecret: "sandbox-secret", note: "embedded sandbox")

    private func report(failing layer: DoctorLayer? = nil) -> DoctorReport {
        var steps: [DoctorStep] = []
        for l in DoctorLayer.allCases {
            if let layer, l > layer {
                steps.append(.skipped(l, Diagnosis.failedReason(layer)))
            } else if l == layer {
                steps.append(DoctorStep(layer: l, status: .fail, ms: 2, summary: "broken", hint: "fix it"))
            } else if l == .tls {
                steps.append(Diagnosis.tlsNotUsed(target: target))
            } else {
                steps.append(DoctorStep(layer: l, status: .pass, ms: 1, summary: "fine"))
            }
        }
        return DoctorReport(target: target, steps: steps, totalMs: 12.345)
    }

    @Test func exitCodesAreTenPlusTheFirstFailingLayer() {
        #expect(report().exitCode == 0)
        #expect(report(failing: .resolve).exitCode == 11)
        #expect(report(failing: .handshake).exitCode == 15)
        #expect(report(failing: .signin).exitCode == 19)
        var warned = report()
        warned.steps[2] = DoctorStep(layer: .tls, status: .warn, ms: 1, summary: "expiring", hint: "renew")
        #expect(warned.exitCode == 0)
        #expect(DoctorLayer.allCases.map(\.exitCode) == Array(11...19))
    }

    @Test func theJSONDocumentDecodes() throws {
        let text = JSONReport.render(report(failing: .auth))
        let document = try JSONValue(parsing: text)
        #expect(document["doctor"] == 1)
        let steps = try #require(document["steps"]?.arrayValue)
        #expect(steps.count == 9)
        #expect(steps.map { $0["name"]?.stringValue ?? "" } == DoctorLayer.allCases.map(\.name))
        #expect(steps[2]["status"] == "skipped" && steps[2]["ms"] == .null)
        #expect(steps[7]["status"] == "fail" && steps[7]["hint"] == "fix it" && steps[7]["layer"] == 8)
        #expect(steps[8]["summary"] == "skipped: the auth endpoint failed")
        let summary = try #require(document["summary"])
        #expect(summary["status"] == "fail")
        #expect(summary["exit_code"] == 18)
        #expect(summary["first_failure"] == "auth" && summary["first_failure_layer"] == 8)
        #expect(summary["passed"] == 6 && summary["skipped"] == 2 && summary["failed"] == 1)
        #expect(summary["ms"] == 12.35)
        #expect(document["target"]?["url"] == "ws://127.0.0.1:6001/app/sandbox-key")
        #expect(document["target"]?["sandbox"] == true)
        #expect(document["target"]?["auth_endpoint"] == "http://127.0.0.1:6001/auth?token=<redacted>")
    }

    @Test func humanOutputHasOneLinePerLayerAndColoursOnlyWhenAsked() {
        let plain = HumanReport.render(report(failing: .ping), color: false)
        #expect(!plain.contains("\u{1B}["))
        let lines = plain.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("FAIL  6 ping") })
        #expect(
            lines.contains { $0.hasPrefix("SKIP  3 tls") && $0.hasSuffix("skipped: plain ws:// (embedded sandbox)") })
        #expect(lines.contains { $0.contains("→ fix it") })
        #expect(lines.last?.contains("failed at ping (layer 6)") == true)
        #expect(lines.last?.hasSuffix("exit 16") == true)
        let coloured = HumanReport.render(report(failing: .ping), color: true)
        #expect(coloured.contains("\u{1B}[31;1mFAIL\u{1B}[0m"))
    }

    @Test func secretsNeverLeaveTheDoctor() {
        var leaky = report()
        let signature = "sandbox-key:" + String(repeating: "ab", count: 32)
        leaky.steps[7] = DoctorStep(
            layer: .auth, status: .fail, ms: 1, summary: "edge said {\"auth\":\"\(signature)\"}",
            details: [
                DoctorDetail("echo", .string("header was sess-123456, secret sandbox-secret")),
                DoctorDetail("raw", .string("signature \(signature)")),
            ], hint: "token tok-abcdef")
        for text in [HumanReport.render(leaky, color: false), JSONReport.render(leaky)] {
            #expect(!text.contains("sess-123456"))
            #expect(!text.contains("sandbox-secret"))
            #expect(!text.contains(String(repeating: "ab", count: 32)))
            #expect(!text.contains("tok-abcdef"))
            #expect(text.contains("sandbox-key:<redacted>"))
        }
    }
}
