// The doctor's facts and options name ProbeFacts' values (`TLSFacts`, `CertificateFacts`,
// `UpgradeAnswer`, `HeaderLine`): the same ones `ConnectionProbe` reports, so `import BirdDoctor`
// gives them too.
@_exported import ProbeFacts
