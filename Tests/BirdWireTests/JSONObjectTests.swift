import Testing
@testable import BirdWire

@Suite("JSONObject keeps members in the order sent")
struct JSONObjectTests {
    @Test("parsing and printing keep member order and the digits sent")
    func orderAndDigits() throws {
        let text = #"{"id":9007199254740993,"b":1,"a":2}"#
        let value = try JSONValue(parsing: text)
        #expect(value.description == text)
        #expect(value["id"]?.int64Value == 9_007_199_254_740_993)
        #expect(value.objectValue?.keys == ["id", "b", "a"])
        #expect(value.prettyDescription == "{\n  \"id\": 9007199254740993,\n  \"b\": 1,\n  \"a\": 2\n}")
        let nested = #"{"z":{"y":[1.50,{"x":true,"w":null}],"v":"u"},"t":-0}"#
        #expect(try JSONValue(parsing: nested).description == nested)
    }

    @Test("a repeated key keeps the last value at the first occurrence's position")
    func duplicateKeys() throws {
        let value = try JSONValue(parsing: #"{"a":1,"b":2,"a":3}"#)
        #expect(value.description == #"{"a":3,"b":2}"#)
        let literal: JSONObject = ["a": 1, "b": 2, "a": 3]
        #expect(literal.description == #"{"a":3,"b":2}"#)
        // The same with an indexed object (more than indexThreshold members).
        let many = (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let big = try JSONValue(parsing: "{\(many),\"k3\":\"again\"}")
        #expect(big.objectValue?.count == 20)
        #expect(big["k3"] == "again")
        #expect(big.objectValue?.keys[3] == "k3")
    }

    @Test("setting appends new keys at the end, replaces in place, nil removes")
    func mutation() {
        var object: JSONObject = ["b": 1, "a": 2]
        object["c"] = 3
        object["b"] = 10
        #expect(object.description == #"{"b":10,"a":2,"c":3}"#)
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
        #expect(object["a"] == nil)
        #expect(object.removeValue(forKey: "b") == 10)
        #expect(object.values == [3])
        #expect(object.updateValue(4, forKey: "c") == 3)
    }

    @Test("large objects are indexed and stay consistent through changes", arguments: [5, 9, 64, 1_000])
    func indexedLookups(_ count: Int) {
        var object = JSONObject()
        for i in 0..<count { object["key\(i)"] = JSONValue(i) }
        for i in stride(from: 0, to: count, by: 3) { object["key\(i)"] = nil }
        for i in 0..<count {
            if i % 3 == 0 {
                #expect(object["key\(i)"] == nil)
            } else {
                #expect(object["key\(i)"]?.intValue == i)
                #expect(object.position(of: "key\(i)").map { object[$0].key } == "key\(i)")
            }
        }
        object["new"] = "last"
        #expect(object.last?.key == "new")
        #expect(object["new"] == "last")
    }

    @Test("equality ignores order; hashing agrees")
    func equality() throws {
        let a = try JSONValue(parsing: #"{"a":1,"b":[1,2],"c":{"d":null}}"#)
        let b = try JSONValue(parsing: #"{"c":{"d":null},"b":[1,2],"a":1.0}"#)
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        #expect(a != (try JSONValue(parsing: #"{"a":1,"b":[2,1],"c":{"d":null}}"#)))
        #expect(a != (try JSONValue(parsing: #"{"a":1,"b":[1,2]}"#)))
        #expect(JSONValue.object(["a": 1]) != .object(["b": 1]))
    }

    @Test("from a dictionary: keys sorted; back to a dictionary")
    func dictionaries() {
        let object = JSONObject(["b": 2, "c": 3, "a": 1])
        #expect(object.keys == ["a", "b", "c"])
        #expect(object.dictionary == ["a": 1, "b": 2, "c": 3])
        #expect(JSONValue(["z": true, "y": false]).description == #"{"y":false,"z":true}"#)
        #expect(JSONValue.object(object).dictionaryValue?["c"] == 3)
    }

    @Test("a sequence of members in order")
    func sequence() {
        let object: JSONObject = ["x": 1, "y": 2]
        var seen: [String] = []
        for (key, value) in object { seen.append("\(key)=\(value)") }
        #expect(seen == ["x=1", "y=2"])
        #expect(object.map(\.key) == ["x", "y"])
        #expect(JSONObject().isEmpty)
    }
}
