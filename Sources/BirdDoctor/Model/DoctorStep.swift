import BirdWire

/// The verdict of one step.
public enum StepStatus: String, Sendable, CaseIterable {
    /// The layer works.
    case pass
    /// The layer works, with something worth a look (a certificate about to expire).
    case warn
    /// The layer is broken; the hint says what to do.
    case fail
    /// Not run: a layer below failed, or nothing was configured to check.
    case skipped

    /// Whether this status lets the run pass.
    public var isPassing: Bool { self != .fail }
}

/// One named fact of a step (`addresses`, `subject`, `status_line`, …) as a JSON value.
public struct DoctorDetail: Sendable, Equatable {
    /// A snake_case key.
    public var key: String
    /// The value (a string, number, Boolean or array of strings in practice).
    public var value: JSONValue

    /// Creates a detail.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// The outcome of one layer: verdict, time, facts, and what to do about a failure.
public struct DoctorStep: Sendable, Equatable {
    /// Which layer.
    public var layer: DoctorLayer
    /// The verdict.
    public var status: StepStatus
    /// Milliseconds the step took; nil when skipped.
    public var ms: Double?
    /// One line: what was found ("127.0.0.1:6001 answered"), or why it was skipped.
    public var summary: String
    /// Facts, in display order.
    public var details: [DoctorDetail]
    /// What to do (on failure and warning); nil otherwise.
    public var hint: String?

    /// Creates a step.
    public init(
        layer: DoctorLayer, status: StepStatus, ms: Double?, summary: String, details: [DoctorDetail] = [],
        hint: String? = nil
    ) {
        self.layer = layer
        self.status = status
        self.ms = ms
        self.summary = summary
        self.details = details
        self.hint = hint
    }

    /// A step that did not run, with the reason ("TCP failed" → "skipped: TCP failed").
    public static func skipped(_ layer: DoctorLayer, _ reason: String) -> DoctorStep {
        DoctorStep(layer: layer, status: .skipped, ms: nil, summary: "skipped: \(reason)")
    }

    /// The detail named `key`, if any.
    public func detail(_ key: String) -> JSONValue? { details.first { $0.key == key }?.value }
}
