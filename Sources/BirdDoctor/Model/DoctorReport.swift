/// The result of a doctor run: what was checked and each layer's step.
public struct DoctorReport: Sendable, Equatable {
    /// What was checked.
    public var target: DoctorTarget
    /// One step per layer, in layer order.
    public var steps: [DoctorStep]
    /// Milliseconds the whole run took.
    public var totalMs: Double

    /// Creates a report.
    public init(target: DoctorTarget, steps: [DoctorStep], totalMs: Double) {
        self.target = target
        self.steps = steps
        self.totalMs = totalMs
    }

    /// The first step that failed.
    public var firstFailure: DoctorStep? { steps.first { $0.status == .fail } }

    /// 0 when nothing failed, else the first failing layer's code (``DoctorLayer/exitCode``).
    public var exitCode: Int32 { firstFailure?.layer.exitCode ?? DoctorExit.passed }

    /// How many steps have `status`.
    public func count(_ status: StepStatus) -> Int { steps.filter { $0.status == status }.count }

    /// The step of `layer`, if it is in the report.
    public func step(_ layer: DoctorLayer) -> DoctorStep? { steps.first { $0.layer == layer } }

    /// One line: "all 9 layers passed (1 skipped)" or "failed at tls (layer 3)".
    public var verdict: String {
        if let failure = firstFailure {
            let more = count(.fail) - 1
            return "failed at \(failure.layer.name) (layer \(failure.layer.rawValue))"
                + (more > 0 ? " and \(more) more" : "")
        }
        let skipped = count(.skipped)
        let warned = count(.warn)
        var notes: [String] = []
        if warned > 0 { notes.append("\(warned) with a warning") }
        if skipped > 0 { notes.append("\(skipped) skipped") }
        let passed = steps.count - skipped
        return "\(passed) of \(steps.count) layers passed"
            + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
    }
}
