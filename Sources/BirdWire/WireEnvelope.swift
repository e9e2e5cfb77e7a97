/// Where a message's `data` is in its text frame (``WireEnvelope``): byte offsets in the frame's
/// UTF-8.
package struct WireDataSpan: Sendable, Equatable {
    /// What the bytes are.
    package enum Kind: Sendable, Equatable {
        /// The content of a JSON string without escapes (between the quotes): the text itself.
        case plainString
        /// The content of a JSON string with escapes (checked, not yet undone).
        case escapedString
        /// Any other JSON value's text, verbatim (never `null`).
        case json
    }

    /// The bytes' offsets in the frame's UTF-8 (two integers, not a `Range`: the span is copied
    /// with every delivery, and plain integers copy without value witnesses).
    package let start: Int
    package let end: Int
    package let kind: Kind

    package init(range: Range<Int>, kind: Kind) {
        self.start = range.lowerBound
        self.end = range.upperBound
        self.kind = kind
    }

    /// The bytes' offsets in the frame's UTF-8.
    package var range: Range<Int> { start..<end }

    /// Whether `data` was a JSON string.
    package var isString: Bool { kind != .json }

    /// Calls `body` with the payload's text as UTF-8 — the frame's own bytes, or a string's
    /// content with its escapes undone into a scratch buffer — or with nil when the content has
    /// `\u` escapes (then use ``text(in:)``). The range is clamped to the frame (never read out
    /// of bounds, whatever frame it is given).
    package func withText<R>(in frame: String, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        var frame = frame
        let range = self.range
        let kind = self.kind
        return frame.withUTF8 { all in
            let slice = UnsafeBufferPointer(rebasing: all[range.clamped(to: 0..<all.count)])
            guard kind == .escapedString, !slice.isEmpty else { return body(slice) }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: slice.count) { out in
                guard let count = JSONParser.unescapeSimple(slice, into: out) else { return body(nil) }
                return body(UnsafeBufferPointer(rebasing: out[0..<count]))
            }
        }
    }

    /// The payload's text: a string's content unescaped, or a value's text verbatim.
    package func text(in frame: String) -> String {
        if let simple = withText(in: frame, { $0.map { String(decoding: $0, as: UTF8.self) } }) { return simple }
        // `\u` escapes: the parser's own decoding, from the opening quote.
        var frame = frame
        let start = range.lowerBound - 1
        return frame.withUTF8 { all in
            guard start >= 0, start < all.count else { return "" }
            var parser = JSONParser(all)
            parser.index = start
            return (try? parser.parseString()) ?? ""
        }
    }

    /// The payload as a ``WirePayload`` (its text made now).
    package func wirePayload(in frame: String) -> WirePayload {
        isString ? .string(text(in: frame)) : .json(text(in: frame))
    }
}

/// A protocol message read for routing, with `data` left in its frame: the client's inbound
/// path. ``decode(_:)`` applies every rule of ``WireMessage/decode(_:)`` (same errors; a string
/// `data` is checked, escapes included), but `data` is neither unescaped nor copied: ``payload``
/// is an ``EventPayload`` over the frame that does that work only when a handler reads it.
package struct WireEnvelope: Sendable {
    /// The message without its `data` (nil here when the frame has one: see ``data``).
    package var head: WireMessage
    /// The whole text frame.
    package var frame: String
    /// Where `data` is, when present and not `null`.
    package var data: WireDataSpan?

    /// Decodes a text frame as ``WireMessage/decode(_:)`` does, locating `data`.
    package static func decode(_ frame: String) throws(WireDecodeError) -> WireEnvelope {
        var text = frame
        var span: WireDataSpan?
        // The message comes straight out of the closure (no `Result` to copy it out of).
        let head: WireMessage
        do {
            head = try text.withUTF8 { buffer in try WireMessage.scanTyped(buffer, locatingData: true, span: &span) }
        } catch let error as WireDecodeError {
            throw error
        } catch {
            throw .notAnObject
        }
        return WireEnvelope(head: head, frame: text, data: span)
    }

    /// The payload, unescaped and parsed only when read; nil when the message had no `data`.
    package var payload: EventPayload? {
        data.map { EventPayload(frame: frame, span: $0) }
    }

    /// The whole message as ``WireMessage/decode(_:)`` gives it (`data` made now).
    package var message: WireMessage {
        var message = head
        if let data { message.data = data.wirePayload(in: frame) }
        return message
    }
}
