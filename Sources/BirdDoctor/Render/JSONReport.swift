import BirdWire

/// The report as one JSON document (docs/DOCTOR.md has the schema), secrets redacted.
public enum JSONReport {
    /// The schema version in `"doctor"`.
    public static let schemaVersion = 1

    /// Pretty-printed JSON text, ending with a newline.
    public static func render(_ report: DoctorReport) -> String {
        Redaction.scrub(value(report).prettyDescription, urls: .redactSecretQueryValues, secrets: report.target.secrets)
            + "\n"
    }

    /// The document as a value (not yet redacted: render it with ``render(_:)``).
    public static func value(_ report: DoctorReport) -> JSONValue {
        let target = report.target
        var targetObject: JSONObject = [
            "url": .string(target.url), "host": .string(target.host), "port": .number(JSONNumber(target.port)),
            "tls": .bool(target.tls), "app_key": .string(target.appKey), "dialect": .string(target.dialect.rawValue),
            "public_channel": .string(target.publicChannel), "auth_channel": .string(target.authChannel),
            "timeout_s": JSONValue(seconds(target.timeout)),
            "auth_endpoint": target.authEndpoint.map { .string(Redaction.diagnosticEndpoint($0)) } ?? .null,
            "member_auth_endpoint": target.memberAuthEndpoint.map { .string(Redaction.diagnosticEndpoint($0)) }
                ?? .null,
            "sandbox": .bool(target.note != nil),
        ]
        if let caFile = target.caFile { targetObject["ca_file"] = .string(caFile) }
        let steps = report.steps.map { step -> JSONValue in
            var details: JSONObject = [:]
            for detail in step.details { details[detail.key] = detail.value }
            return .object([
                "layer": .number(JSONNumber(step.layer.rawValue)), "name": .string(step.layer.name),
                "status": .string(step.status.rawValue), "ms": step.ms.map { JSONValue(rounded($0)) } ?? .null,
                "summary": .string(step.summary), "details": .object(details),
                "hint": step.hint.map(JSONValue.string) ?? .null,
            ])
        }
        let failure = report.firstFailure
        let summary: JSONValue = .object([
            "status": .string(failure == nil ? "pass" : "fail"), "verdict": .string(report.verdict),
            "exit_code": .number(JSONNumber(report.exitCode)),
            "first_failure": failure.map { .string($0.layer.name) } ?? .null,
            "first_failure_layer": failure.map { .number(JSONNumber($0.layer.rawValue)) } ?? .null,
            "passed": .number(JSONNumber(report.count(.pass))), "warned": .number(JSONNumber(report.count(.warn))),
            "failed": .number(JSONNumber(report.count(.fail))), "skipped": .number(JSONNumber(report.count(.skipped))),
            "ms": JSONValue(rounded(report.totalMs)),
        ])
        return .object([
            "doctor": .number(JSONNumber(schemaVersion)), "target": .object(targetObject), "steps": .array(steps),
            "summary": summary,
        ])
    }

    static func rounded(_ ms: Double) -> Double { (ms * 100).rounded() / 100 }

    static func seconds(_ duration: Duration) -> Double {
        let (s, atto) = duration.components
        return Double(s) + Double(atto) / 1e18
    }
}
