/// HTTP header fields in their original order, with case-insensitive lookup.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    private var fields: [(name: String, value: String)]

    /// Creates headers from name/value pairs, keeping their order.
    public init(_ pairs: [(String, String)] = []) {
        fields = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// Creates headers from a literal.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of the field `name` (case-insensitive), or nil.
    public subscript(name: String) -> String? {
        let lower = name.lowercased()
        return fields.first { $0.name.lowercased() == lower }?.value
    }

    /// All values of the field `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        let lower = name.lowercased()
        return fields.filter { $0.name.lowercased() == lower }.map(\.value)
    }

    /// Whether the comma-separated field `name` contains `token` (case-insensitive).
    public func contains(name: String, token: String) -> Bool {
        let wanted = token.lowercased()
        return values(for: name).contains { value in
            value.split(separator: ",").contains { $0.trimmingHTTPWhitespace().lowercased() == wanted }
        }
    }

    /// Appends a field (an existing one of the same name is kept).
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field named `name` with one field.
    public mutating func set(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        let lower = name.lowercased()
        fields.removeAll { $0.name.lowercased() == lower }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// The fields as `Name: value` lines.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}

extension Substring {
    func trimmingHTTPWhitespace() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return s
    }
}
