/// The libFuzzer entry point type: `int (*)(const uint8_t *data, size_t size)`.
typealias FuzzEntry = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

/// One fuzz target: a name for the command line and a libFuzzer callback.
///
/// To add a harness, write a `static let` in an extension of `FuzzHarness` (in its own file) and
/// list it in `FuzzHarness.all`; then add seed inputs under `Scripts/fuzz-seeds/NAME/`.
/// A harness must never crash on any input: errors thrown by the code under test are expected
/// and simply end the run for that input. A crash (trap, sanitizer report) is a finding.
struct FuzzHarness: Sendable {
    /// The name given on the command line (`bird-fuzz NAME`, `Scripts/fuzz NAME`).
    let name: String
    /// One line saying what the harness feeds to what.
    let summary: String
    /// The libFuzzer callback.
    let entry: FuzzEntry
    /// libFuzzer flags this harness always runs with (before those on the command line, which win).
    var defaultFlags: [String] = []

    /// Every harness, in the order `Scripts/fuzz all` runs them.
    static let all: [FuzzHarness] = [
        .websocket,
        .message,
        .http,
        .encrypted,
        .client,
        .replay,
        .control,
        .inspectorReplay,
    ]

    /// The harness called `name`, if any.
    static func named(_ name: String) -> FuzzHarness? {
        all.first { $0.name == name }
    }
}

extension UnsafePointer<UInt8>? {
    /// The fuzzer's input as an array (libFuzzer may pass a null pointer with size 0).
    func fuzzBytes(count: Int) -> [UInt8] {
        guard let base = self, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: count))
    }
}
