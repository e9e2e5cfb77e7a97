/// The members of a JSON object, in the order they were sent.
///
/// Reading by key (`object["id"]`) is a short linear scan for small objects and a hash lookup
/// once an object has more than ``indexThreshold`` members (the index is built then, not for
/// every payload). Setting a new key appends it; setting an existing key replaces its value in
/// place; setting nil removes it. A parsed object whose text repeats a key keeps the last value
/// at the first occurrence's position, as JavaScript does.
///
/// Equality is by content and ignores order (`{"a":1,"b":2}` equals `{"b":2,"a":1}`); the hash
/// agrees. ``description`` is compact JSON in member order.
public struct JSONObject: Sendable {
    /// One member.
    public typealias Member = (key: String, value: JSONValue)

    /// Objects with more members than this get a key index.
    public static let indexThreshold = 8

    /// One stored member: a struct rather than the public tuple, so an object's storage is
    /// copied and destroyed by compiled code (an array of tuples goes through the runtime's
    /// generic tuple witnesses, ≈ 300 instructions per parsed payload).
    private struct Entry {
        var key: String
        var value: JSONValue
    }

    private var members: [Entry]
    /// Position of each key, when there are more than ``indexThreshold`` members.
    private var index: [String: Int]?

    /// An empty object.
    public init() {
        members = []
    }

    /// An object with room for `capacity` members.
    init(capacity: Int) {
        members = []
        members.reserveCapacity(capacity)
    }

    /// The members of `dictionary`, in sorted key order (so the result does not depend on the
    /// dictionary's hashing).
    public init(_ dictionary: [String: JSONValue]) {
        members = dictionary.sorted { $0.key < $1.key }.map { Entry(key: $0.key, value: $0.value) }
        rebuildIndex()
    }

    /// The members in the order given; a repeated key keeps the last value at its first position.
    public init<S: Sequence>(members: S) where S.Element == (key: String, value: JSONValue) {
        self.members = []
        for member in members { self[member.key] = member.value }
    }

    // MARK: - Reading

    /// The value of the member named `key`, or nil. Setting appends a new key at the end,
    /// replaces an existing key's value in place, or (with nil) removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let position = position(of: key) else { return nil }
            return members[position].value
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// The member names, in order.
    public var keys: [String] { members.map(\.key) }

    /// The member values, in order.
    public var values: [JSONValue] { members.map(\.value) }

    /// The members as a dictionary (order dropped).
    public var dictionary: [String: JSONValue] {
        var result = [String: JSONValue](minimumCapacity: members.count)
        for member in members { result[member.key] = member.value }
        return result
    }

    /// The position of the member named `key`.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        for position in members.indices where members[position].key == key { return position }
        return nil
    }

    // MARK: - Changing

    /// Sets the member `key` to `value` (in place when it exists, else at the end); returns the
    /// value it replaced.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        if let position = position(of: key) {
            let old = members[position].value
            members[position].value = value
            return old
        }
        members.append(Entry(key: key, value: value))
        if index != nil {
            index?[key] = members.count - 1
        } else if members.count > Self.indexThreshold {
            rebuildIndex()
        }
        return nil
    }

    /// Removes the member `key`; returns its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        let old = members.remove(at: position).value
        rebuildIndex()
        return old
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            index = nil
            return
        }
        var built = [String: Int](minimumCapacity: members.count)
        for (position, member) in members.enumerated() { built[member.key] = position }
        index = built
    }
}

// MARK: - Collection

extension JSONObject: RandomAccessCollection {
    public typealias Element = Member
    public typealias Index = Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { members.count }

    /// The member at `position` (in the order sent).
    public subscript(position: Int) -> Member {
        let entry = members[position]
        return (key: entry.key, value: entry.value)
    }
}

// MARK: - Equality

extension JSONObject: Hashable {
    /// Same members, whatever their order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }

    /// Order-independent: the members' hashes are combined commutatively.
    public func hash(into hasher: inout Hasher) {
        var sum = 0
        for member in members {
            var one = Hasher()
            one.combine(member.key)
            one.combine(member.value)
            sum = sum &+ one.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(sum)
    }
}

// MARK: - Literals and text

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// The members in the order written; a repeated key keeps the last value at its first position.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = []
        members.reserveCapacity(elements.count)
        for (key, value) in elements { self[key] = value }
    }
}

extension JSONObject: CustomStringConvertible {
    /// Compact JSON, members in order.
    public var description: String { JSONWriter.write(.object(self)) }
}
