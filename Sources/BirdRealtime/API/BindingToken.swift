/// Identifies one registered handler, for `unbind`. Tokens are unique in the process.
public struct BindingToken: Hashable, Sendable, CustomStringConvertible {
    let id: UInt64

    public var description: String { "binding #\(id)" }

    private static let counter = Locked<UInt64>(0)

    static func nextId() -> UInt64 {
        counter.withLock { value in
            value += 1
            return value
        }
    }
}
