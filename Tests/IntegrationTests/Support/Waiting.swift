import Foundation
import Testing

/// Polls `condition` every 20 ms until it holds or `seconds` (a generous functional deadline,
/// not a performance claim) have passed. Records an issue naming `what` on timeout.
@discardableResult
func eventually(
    _ what: @autoclosure () -> String, within seconds: Double = 15,
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () -> Bool
) async -> Bool {
    if await poll(within: seconds, condition) { return true }
    Issue.record("timed out after \(seconds) s waiting for: \(what())", sourceLocation: sourceLocation)
    return false
}

/// Polls `condition` every 20 ms until it holds or `seconds` have passed; no issue recorded.
func poll(within seconds: Double, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while true {
        if condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
}
