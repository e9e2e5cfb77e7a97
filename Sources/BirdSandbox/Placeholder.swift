// BirdSandbox: work in progress; see docs/ARCHITECTURE.md.
enum BirdSandboxModulePlaceholder {}
