import Foundation
import Testing
@testable import BirdWire

@Suite("Codable through the lossless model")
struct CodableTests {
    struct Line: Codable, Equatable {
        var sku: String
        var quantity: Int8
        var price: Decimal
    }

    struct Order: Codable, Equatable {
        var id: Int64
        var total: Decimal
        var ratio: Double
        var lines: [Line]
        var note: String?
        var tags: Set<String>
        var extra: JSONValue
    }

    let decoder = JSONValueDecoder()
    let encoder = JSONValueEncoder()

    @Test("decodes nested types, 64-bit ids exact, Decimal with its digits, optionals, JSONValue members")
    func decodes() throws {
        let value = try JSONValue(
            parsing: #"""
                {"id":9007199254740993,"total":12.10,"ratio":0.1,"lines":[{"sku":"a","quantity":2,"price":0.10}],
                 "tags":["x","y"],"extra":{"b":1,"a":[true,null]}}
                """#)
        let order = try decoder.decode(Order.self, from: value)
        #expect(order.id == 9_007_199_254_740_993)
        #expect(order.total == Decimal(string: "12.10"))
        #expect(order.ratio == 0.1)
        #expect(order.lines == [Line(sku: "a", quantity: 2, price: Decimal(string: "0.1")!)])
        #expect(order.note == nil)
        #expect(order.tags == ["x", "y"])
        #expect(order.extra.description == #"{"b":1,"a":[true,null]}"#)
    }

    @Test("encodes exactly, members in the order the type encodes them; round-trips")
    func encodes() throws {
        let order = Order(
            id: 9_007_199_254_740_993, total: Decimal(string: "12.5")!, ratio: 0.1,
            lines: [Line(sku: "a", quantity: -3, price: 2)], note: "n", tags: ["t"], extra: ["z": 1, "y": 2])
        let value = try encoder.encode(order)
        #expect(
            value.description
                == #"{"id":9007199254740993,"total":12.5,"ratio":0.1,"lines":[{"sku":"a","quantity":-3,"price":2}],"note":"n","tags":["t"],"extra":{"z":1,"y":2}}"#
        )
        #expect(try decoder.decode(Order.self, from: value) == order)
        #expect(try encoder.encode(UInt64.max).description == "18446744073709551615")
        #expect(try encoder.encode([Int64.min]).description == "[-9223372036854775808]")
    }

    @Test("numbers that do not fit are errors naming the path, never rounded")
    func exactness() throws {
        struct Small: Decodable { var n: Int8 }
        let tooBig = #expect(throws: DecodingError.self) { try decoder.decode(Small.self, from: ["n": 300]) }
        guard case .dataCorrupted(let context)? = tooBig else { Issue.record("\(String(describing: tooBig))"); return }
        #expect(context.codingPath.map(\.stringValue) == ["n"])
        #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: 1.5) }
        #expect(throws: DecodingError.self) { try decoder.decode(UInt.self, from: -1) }
        #expect(throws: DecodingError.self) { try decoder.decode(Int64.self, from: .number(JSONNumber(UInt64.max))) }
        #expect(try decoder.decode(Int.self, from: .number(JSONNumber(text: "1e3")!)) == 1_000)
        #expect(throws: DecodingError.self) {
            try decoder.decode(Float.self, from: .number(JSONNumber(text: "1e300")!))
        }
    }

    @Test("type mismatches and missing keys are DecodingErrors with their coding path")
    func mismatches() throws {
        let error = #expect(throws: DecodingError.self) {
            try decoder.decode(
                Order.self,
                from: try JSONValue(parsing: #"{"id":"9","total":1,"ratio":1,"lines":[],"tags":[],"extra":1}"#))
        }
        guard case .typeMismatch(_, let context)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(context.codingPath.map(\.stringValue) == ["id"])
        let missing = #expect(throws: DecodingError.self) {
            try decoder.decode(
                [Line].self, from: try JSONValue(parsing: #"[{"sku":"a","quantity":1,"price":1},{"sku":"b"}]"#))
        }
        guard case .keyNotFound(let key, let where_)? = missing else {
            Issue.record("\(String(describing: missing))"); return
        }
        #expect(key.stringValue == "quantity")
        #expect(where_.codingPath.map { $0.intValue } == [1])
    }

    @Test("snake_case strategies map member names both ways")
    func snakeCase() throws {
        struct Shipment: Codable, Equatable {
            var orderId: Int
            var trackingURL: String
            var _private: Bool
        }
        var snakeDecoder = JSONValueDecoder()
        snakeDecoder.keyDecodingStrategy = .convertFromSnakeCase
        let value = try JSONValue(parsing: #"{"order_id":7,"tracking_url":"u","_private":true}"#)
        struct Plain: Decodable { var orderId: Int; var trackingUrl: String }
        let plain = try snakeDecoder.decode(Plain.self, from: value)
        #expect(plain.orderId == 7 && plain.trackingUrl == "u")
        var snakeEncoder = JSONValueEncoder()
        snakeEncoder.keyEncodingStrategy = .convertToSnakeCase
        let encoded = try snakeEncoder.encode(Shipment(orderId: 1, trackingURL: "t", _private: false))
        #expect(encoded.description == #"{"order_id":1,"tracking_url":"t","_private":false}"#)
    }

    @Test("dates, data and URLs by strategy, as Foundation's JSON coders do")
    func strategies() throws {
        struct Stamp: Codable, Equatable { var at: Date; var blob: Data; var link: URL }
        let stamp = Stamp(
            at: Date(timeIntervalSince1970: 1_700_000_000), blob: Data([1, 2, 3]),
            link: URL(string: "https://x.example/a")!)
        var encoder = JSONValueEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let value = try encoder.encode(stamp)
        #expect(value.description == #"{"at":1700000000,"blob":"AQID","link":"https://x.example/a"}"#)
        var decoder = JSONValueDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        #expect(try decoder.decode(Stamp.self, from: value) == stamp)
        encoder.dateEncodingStrategy = .iso8601
        decoder.dateDecodingStrategy = .iso8601
        let iso = try encoder.encode(stamp)
        #expect(iso["at"] == "2023-11-14T22:13:20Z")
        #expect(try decoder.decode(Stamp.self, from: iso) == stamp)
        encoder.dateEncodingStrategy = .millisecondsSince1970
        decoder.dateDecodingStrategy = .millisecondsSince1970
        #expect(try decoder.decode(Stamp.self, from: try encoder.encode(stamp)) == stamp)
        #expect(try JSONValueDecoder().decode(Date.self, from: try JSONValueEncoder().encode(stamp.at)) == stamp.at)
    }

    @Test("a non-finite number is an EncodingError, not a trap")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try encoder.encode([Double.nan]) }
        #expect(throws: EncodingError.self) { try encoder.encode(["x": Double.infinity]) }
        #expect(throws: EncodingError.self) { try encoder.encode(Float.infinity) }
    }

    @Test("JSONValue is Codable with Foundation's coders too, numbers exact")
    func foundationCoders() throws {
        let value = try JSONValue(
            parsing: #"{"id":9007199254740993,"big":18446744073709551615,"d":1.25,"s":"x","n":null,"a":[true]}"#)
        let data = try JSONEncoder().encode(value)
        let back = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(back == value)
        #expect(back["id"]?.int64Value == 9_007_199_254_740_993)
        #expect(back["big"]?.uint64Value == UInt64.max)
        #expect(try JSONValueDecoder().decode(JSONValue.self, from: value) == value)
        #expect(try JSONValueEncoder().encode(value).description == value.description)
    }

    @Test("decoding from text parses losslessly; bad text is dataCorrupted")
    func fromText() throws {
        #expect(try decoder.decode([Int64].self, fromText: "[9007199254740993]") == [9_007_199_254_740_993])
        #expect(throws: DecodingError.self) { try decoder.decode([Int].self, fromText: "[1,") }
    }
}
