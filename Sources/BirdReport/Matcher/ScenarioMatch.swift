/// A built-in scenario whose fault pattern the recording shows, and the evidence.
public struct ScenarioMatch: Sendable, Equatable {
    /// The scenario's name (`bird-sandbox --scenario NAME`).
    public var name: String
    /// What in the recording matched, in one sentence.
    public var evidence: String
    /// When the pattern first showed (ms).
    public var atMs: Double

    /// A match.
    public init(name: String, evidence: String, atMs: Double) {
        self.name = name
        self.evidence = evidence
        self.atMs = atMs
    }
}
