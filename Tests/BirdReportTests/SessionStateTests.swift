import BirdReport
import BirdWire
import Testing

/// The report reads a recording's state names with the client's own list (BirdWire's
/// `ConnectionState`), so a state the client gains is one the report knows.
@Suite struct SessionStateTests {
    @Test func everyStateTheClientNamesIsOneTheReportKnows() {
        for state in ConnectionState.allCases {
            #expect(SessionState(name: state.rawValue).known == state, "\(state)")
            #expect(SessionState(name: state.rawValue).rawValue == state.rawValue)
        }
        #expect(SessionState.allCases.count == ConnectionState.allCases.count + 1)
    }

    @Test func aNameTheClientDoesNotUseReadsAsUnknown() {
        for name in ["reconnecting", "CONNECTED", "", nil] as [String?] {
            #expect(SessionState(name: name) == .unknown, "\(name ?? "nil")")
        }
        #expect(SessionState.unknown.rawValue == "unknown")
        #expect(SessionState.allCases.last == .unknown)
    }
}
