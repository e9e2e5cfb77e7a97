import BirdWire
import Foundation

/// The report for people: one line per layer, facts and a hint under the ones that need them,
/// a verdict at the end. Colours (ANSI) only when asked; secrets redacted.
public enum HumanReport {
    /// The text, ending with a newline.
    public static func render(_ report: DoctorReport, color: Bool) -> String {
        let paint = Paint(enabled: color)
        let target = report.target
        var lines: [String] = []
        var header = "bird-inspect doctor · \(target.url) · \(target.dialect) dialect"
        if let note = target.note { header += " · \(note)" }
        lines.append(paint.bold(header))
        lines.append("")
        for step in report.steps {
            let label = label(step.status, paint)
            let name = "\(step.layer.rawValue) \(step.layer.name)".padding(toLength: 12, withPad: " ", startingAt: 0)
            let time = (step.ms.map(DoctorText.duration) ?? "").leftPadded(to: 8)
            lines.append("\(label)  \(name)\(time)  \(step.summary)")
            if showsDetails(step) {
                for detail in step.details {
                    lines.append("        " + paint.dim("\(detail.key): \(text(detail.value))"))
                }
            }
            if let hint = step.hint, step.status == .fail || step.status == .warn {
                lines.append("        " + paint.hint("→ \(hint)"))
            }
        }
        lines.append("")
        let verdict = "\(report.verdict) in \(DoctorText.duration(report.totalMs)) — exit \(report.exitCode)"
        lines.append(report.firstFailure == nil ? paint.pass(verdict) : paint.fail(verdict))
        return Redaction.scrub(lines.joined(separator: "\n"), urls: .redactSecretQueryValues, secrets: target.secrets)
            + "\n"
    }

    /// Details are shown for steps whose summary does not say it all.
    static func showsDetails(_ step: DoctorStep) -> Bool {
        switch step.status {
        case .skipped: return false
        case .fail, .warn: return true
        case .pass: return [.tls, .auth, .signin].contains(step.layer)
        }
    }

    static func label(_ status: StepStatus, _ paint: Paint) -> String {
        switch status {
        case .pass: return paint.pass("PASS")
        case .warn: return paint.warn("WARN")
        case .fail: return paint.fail("FAIL")
        case .skipped: return paint.dim("SKIP")
        }
    }

    /// A detail value as text: lists joined, attempts as `address outcome (ms)`.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .bool(let b): return b ? "yes" : "no"
        case .null: return "–"
        case .number: return value.description
        case .array(let items):
            if items.isEmpty { return "none" }
            return items.map { item in
                if let object = item.objectValue, let address = object["address"]?.stringValue {
                    let outcome = object["outcome"]?.stringValue ?? ""
                    let ms = object["ms"]?.doubleValue.map(DoctorText.duration) ?? ""
                    return "\(address) \(outcome) (\(ms))"
                }
                return text(item)
            }.joined(separator: ", ")
        case .object: return value.description
        }
    }

    /// ANSI styling, or none.
    struct Paint {
        let enabled: Bool
        func wrap(_ code: String, _ text: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        func pass(_ t: String) -> String { wrap("32", t) }
        func warn(_ t: String) -> String { wrap("33", t) }
        func fail(_ t: String) -> String { wrap("31;1", t) }
        func dim(_ t: String) -> String { wrap("2", t) }
        func bold(_ t: String) -> String { wrap("1", t) }
        func hint(_ t: String) -> String { wrap("33", t) }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
