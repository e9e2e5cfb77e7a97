// BirdRealtime: work in progress; see docs/ARCHITECTURE.md.
enum BirdRealtimeModulePlaceholder {}
