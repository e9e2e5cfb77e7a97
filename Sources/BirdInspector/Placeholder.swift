// BirdInspector: work in progress; see docs/ARCHITECTURE.md.
enum BirdInspectorModulePlaceholder {}
