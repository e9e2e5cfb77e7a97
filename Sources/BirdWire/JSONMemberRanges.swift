/// One member of a JSON object text: its key and where its value's text lies.
package struct JSONMemberRange: Sendable, Equatable {
    /// The member's key (unescaped).
    package var key: String
    /// The UTF-8 byte offsets of the value's text in the object's text (no surrounding space).
    package var value: Range<Int>

    package init(key: String, value: Range<Int>) {
        self.key = key
        self.value = value
    }
}

extension JSONValue {
    /// The members of `text`, one JSON object, with the byte range of each value's text, in the
    /// order written (a repeated key appears each time). Nil when `text` is not exactly one valid
    /// JSON object (the same strict parser checks every value). Lets a caller replace one value
    /// or take one value's exact text and keep every other byte.
    package static func memberRanges(in text: String) -> [JSONMemberRange]? {
        var text = text
        return text.withUTF8 { memberRanges(in: $0) }
    }

    /// `memberRanges(in:)` over UTF-8 bytes.
    package static func memberRanges(in bytes: UnsafeBufferPointer<UInt8>) -> [JSONMemberRange]? {
        var p = JSONParser(bytes)
        var members: [JSONMemberRange] = []
        do throws(JSONParseError) {
            p.skipWhitespace()
            guard p.peek() == UInt8(ascii: "{") else { return nil }
            p.index += 1
            p.skipWhitespace()
            if p.peek() == UInt8(ascii: "}") {
                p.index += 1
            } else {
                while true {
                    p.skipWhitespace()
                    guard p.peek() == UInt8(ascii: "\"") else { return nil }
                    let key = try p.parseString()
                    p.skipWhitespace()
                    guard p.peek() == UInt8(ascii: ":") else { return nil }
                    p.index += 1
                    p.skipWhitespace()
                    let start = p.index
                    _ = try p.parseValue()
                    members.append(JSONMemberRange(key: key, value: start..<p.index))
                    p.skipWhitespace()
                    switch p.peek() {
                    case UInt8(ascii: ","): p.index += 1; continue
                    case UInt8(ascii: "}"): p.index += 1
                    default: return nil
                    }
                    break
                }
            }
            p.skipWhitespace()
        } catch {
            return nil
        }
        return p.index == bytes.count ? members : nil
    }
}
