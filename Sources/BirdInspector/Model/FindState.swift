// The search and the marks of the event log: what `f`, `n`/`N`, `m` and `[`/`]` work on.

import Foundation

/// The event log's search and marks (both by sequence number, so they outlive filter changes).
public struct FindState: Sendable, Equatable {
    /// The search: matching entries are flagged in the gutter, others stay (nil: none).
    public var search: LogQuery?
    /// Sequence numbers of marked entries (entries since evicted are ignored).
    public var marks: Set<Int> = []
    /// The entries the filter matches (kept by `update`).
    public var filterHits = MatchCache()
    /// The entries the search matches (kept by `update`).
    public var searchHits = MatchCache()

    /// No search, no marks.
    public init() {}

    /// Whether the Events pane draws its one-column gutter (a search or a mark is set).
    public var showsGutter: Bool { search != nil || !marks.isEmpty }
}
