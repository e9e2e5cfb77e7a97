// BirdWire: work in progress; see docs/ARCHITECTURE.md.
enum BirdWireModulePlaceholder {}
