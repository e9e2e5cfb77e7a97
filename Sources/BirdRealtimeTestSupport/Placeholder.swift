// BirdRealtimeTestSupport: work in progress; see docs/ARCHITECTURE.md.
enum BirdRealtimeTestSupportModulePlaceholder {}
