import BirdWire

/// The report as one JSON document (docs/DOCTOR.md has the schema), secrets redacted.
public enum JSONReport {
    /// The schema version in `"doctor"`.
    public static let schemaVersion = 1

    /// Pretty-printed JSON text, ending with a newline.
    public static func render(_ report: DoctorReport) -> String {
        DoctorRedaction.scrub(value(report).prettyDescription, secrets: report.target.secrets) + "\n"
    }

    /// The document as a value (not yet redacted: render it with ``render(_:)``).
    public static func value(_ report: DoctorReport) -> JSONValue {
        let target = report.target
        var targetObject: [String: JSONValue] = [
            "url": .string(target.url), "host": .string(target.host), "port": .number(Double(target.port)),
            "tls": .bool(target.tls), "app_key": .string(target.appKey), "dialect": .string(target.dialect.rawValue),
            "public_channel": .string(target.publicChannel), "auth_channel": .string(target.authChannel),
            "timeout_s": .number(seconds(target.timeout)),
            "auth_endpoint": target.authEndpoint.map { .string(DoctorText.endpoint($0)) } ?? .null,
            "member_auth_endpoint": target.memberAuthEndpoint.map { .string(DoctorText.endpoint($0)) } ?? .null,
            "sandbox": .bool(target.note != nil),
        ]
        if let caFile = target.caFile { targetObject["ca_file"] = .string(caFile) }
        let steps = report.steps.map { step -> JSONValue in
            var details: [String: JSONValue] = [:]
            for detail in step.details { details[detail.key] = detail.value }
            return .object([
                "layer": .number(Double(step.layer.rawValue)), "name": .string(step.layer.name),
                "status": .string(step.status.rawValue), "ms": step.ms.map { .number(rounded($0)) } ?? .null,
                "summary": .string(step.summary), "details": .object(details),
                "hint": step.hint.map(JSONValue.string) ?? .null,
            ])
        }
        let failure = report.firstFailure
        let summary: JSONValue = .object([
            "status": .string(failure == nil ? "pass" : "fail"), "verdict": .string(report.verdict),
            "exit_code": .number(Double(report.exitCode)),
            "first_failure": failure.map { .string($0.layer.name) } ?? .null,
            "first_failure_layer": failure.map { .number(Double($0.layer.rawValue)) } ?? .null,
            "passed": .number(Double(report.count(.pass))), "warned": .number(Double(report.count(.warn))),
            "failed": .number(Double(report.count(.fail))), "skipped": .number(Double(report.count(.skipped))),
            "ms": .number(rounded(report.totalMs)),
        ])
        return .object([
            "doctor": .number(Double(schemaVersion)), "target": .object(targetObject), "steps": .array(steps),
            "summary": summary,
        ])
    }

    static func rounded(_ ms: Double) -> Double { (ms * 100).rounded() / 100 }

    static func seconds(_ duration: Duration) -> Double {
        let (s, atto) = duration.components
        return Double(s) + Double(atto) / 1e18
    }
}
