// Which log entries match the filter and the search, kept as `update` runs so that drawing a
// frame does not run a regex over the whole log (each new entry is tested once, as it arrives;
// a new query tests the log once).

/// The sequence numbers of the log entries a query matches, ascending, up to `through`.
public struct MatchCache: Sendable, Equatable {
    /// The query's text the cache was built for.
    public private(set) var query: String?
    /// The newest sequence number tested.
    public private(set) var through = 0
    /// Matching sequence numbers, ascending; those before `live` may have left the log.
    private var seqs: [Int] = []
    private var live = 0

    /// An empty cache (for no query).
    public init() {}

    /// Whether the cache holds `query`'s matches in `log` as it is now.
    public func isCurrent(for query: LogQuery, _ log: EventLog) -> Bool {
        self.query == query.text && through == log.lastSeq
    }

    /// Brings the cache up to date with `query` and `log`: everything again for a new query, the
    /// entries since the last call otherwise.
    public mutating func sync(_ query: LogQuery?, _ log: EventLog) {
        guard let query, !query.isEmpty else {
            if self.query != nil { self = MatchCache() }
            return
        }
        if self.query != query.text || through > log.lastSeq {
            self = MatchCache()
            self.query = query.text
        }
        let from = max(through + 1, log.firstSeq)
        if from <= log.lastSeq {
            for seq in from...log.lastSeq where log.entry(seq: seq).map(query.matches) == true { seqs.append(seq) }
        }
        through = log.lastSeq
        // Drop what left the log, in one go once it is half the array.
        while live < seqs.count && seqs[live] < log.firstSeq { live += 1 }
        if live > 1024 && live * 2 > seqs.count {
            seqs.removeFirst(live)
            live = 0
        }
    }

    /// The matching sequence numbers from `low` to `high`.
    public func seqs(from low: Int, through high: Int) -> ArraySlice<Int> {
        guard low <= high else { return [] }
        let a = index(of: low), b = index(of: high + 1)
        return seqs[a..<b]
    }

    /// Whether `seq` matched.
    public func contains(_ seq: Int) -> Bool {
        let i = index(of: seq)
        return i < seqs.count && seqs[i] == seq
    }

    /// The first index (at or after `live`) whose sequence number is at least `seq`.
    private func index(of seq: Int) -> Int {
        var lo = live, hi = seqs.count
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if seqs[mid] < seq { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
