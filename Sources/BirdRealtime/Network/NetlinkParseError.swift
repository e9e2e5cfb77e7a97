/// Why bytes read from a netlink socket are not well-formed rtnetlink messages. The parser never
/// traps on input: every length is checked before it is used.
package struct NetlinkParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    package enum Kind: String, Sendable, Hashable {
        /// Fewer bytes than a `nlmsghdr` remain.
        case truncatedHeader
        /// `nlmsg_len` is smaller than a header or larger than the bytes that remain.
        case badLength
        /// The body is shorter than its fixed part (`ifinfomsg`, `ifaddrmsg`, `rtmsg`, `nlmsgerr`).
        case truncatedBody
        /// An attribute's `rta_len` (or a nexthop's `rtnh_len`) is impossible.
        case badAttribute
        /// An attribute has the wrong size for its type (an IPv4 address of 5 bytes, say).
        case badAttributeValue
    }

    /// What was wrong.
    package var kind: Kind
    /// Where, in bytes from the start of the datagram.
    package var offset: Int
    /// More detail for people.
    package var detail: String

    package init(_ kind: Kind, offset: Int, _ detail: String) {
        self.kind = kind
        self.offset = offset
        self.detail = detail
    }

    package var description: String { "\(kind.rawValue) at byte \(offset): \(detail)" }
}
