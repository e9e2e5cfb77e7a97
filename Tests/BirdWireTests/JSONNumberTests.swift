import Foundation
import Testing
@testable import BirdWire

@Suite("JSONNumber keeps every number exactly")
struct JSONNumberTests {
    func number(_ text: String) throws -> JSONNumber {
        try #require(try JSONValue(parsing: text).numberValue)
    }

    @Test("64-bit integers are exact, up to UInt64.max")
    func integers() throws {
        let id = try number("9007199254740993")
        #expect(id.int64Value == 9_007_199_254_740_993)
        #expect(id.text == "9007199254740993")
        #expect(id.doubleValue == 9_007_199_254_740_992)  // the nearest Double, when asked
        #expect(try number("-9223372036854775808").int64Value == Int64.min)
        #expect(try number("9223372036854775807").int64Value == Int64.max)
        let big = try number("18446744073709551615")
        #expect(big.uint64Value == UInt64.max)
        #expect(big.int64Value == nil)
        #expect(big.text == "18446744073709551615")
        #expect(try number("-1").uint64Value == nil)
        #expect(try number("-9223372036854775809").int64Value == nil)
        #expect(try number("-9223372036854775809").text == "-9223372036854775809")
    }

    @Test(
        "other numbers keep their text exactly",
        arguments: [
            "1.50", "1e3", "1E+3", "12345678901234567890123", "-0", "-0.0", "0.1", "2.5e-3", "1e-400",
            "1.7976931348623157e308", "123456789012345678901234567890.000001",
        ])
    func textKept(_ text: String) throws {
        #expect(try number(text).text == text)
        #expect(try JSONValue(parsing: "[\(text)]").description == "[\(text)]")
        #expect(JSONNumber(text: text)?.text == text)
    }

    @Test("integer accessors are exact: integral spellings convert, fractions and overflow do not")
    func exactAccessors() throws {
        #expect(try number("1.0").intValue == 1)
        #expect(try number("1e3").int64Value == 1_000)
        #expect(try number("4.009e3").intValue == 4_009)
        #expect(try number("-0").int64Value == 0)
        #expect(try number("1.5").intValue == nil)
        #expect(try number("1e-3").intValue == nil)
        #expect(try number("1e19").int64Value == nil)
        #expect(try number("1e19").uint64Value == 10_000_000_000_000_000_000)
        #expect(try number("1e20").uint64Value == nil)
        #expect(try number("12345678901234567890123").int64Value == nil)
        #expect(try number("12345678901234567890123").isIntegral)
        #expect(try number("1.5").isIntegral == false)
        #expect(try number("1e-99999999999999999999999").int64Value == nil)
        #expect(try number("1e-99999999999999999999999").doubleValue == 0)
    }

    @Test("doubleValue is the nearest Double; decimalValue keeps the digits Decimal can hold")
    func conversions() throws {
        #expect(try number("0.1").doubleValue == 0.1)
        #expect(try number("1e3").doubleValue == 1_000)
        #expect(try number("-2.5E-3").doubleValue == -0.0025)
        #expect(try number("1e-400").doubleValue == 0)
        #expect(try number("1.50").decimalValue == Decimal(string: "1.5"))
        #expect(try number("9007199254740993").decimalValue == Decimal(string: "9007199254740993"))
        #expect(try number("1e200").decimalValue == nil)
    }

    @Test("numbers beyond Double's range are a typed parse error, not infinity")
    func outOfRange() throws {
        for text in ["1e400", "-1e400", "1.8e308", "1" + String(repeating: "0", count: 400), "1e999999999999999999999"]
        {
            let error = #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
            #expect(error?.kind == .numberOutOfRange, "\(text)")
            #expect(JSONNumber(text: text) == nil)
        }
        #expect(try number("1.7976931348623157e308").doubleValue == .greatestFiniteMagnitude)
        #expect(try number("0.17976931348623157e309").doubleValue == .greatestFiniteMagnitude)
        #expect(try number("0e99999999999").doubleValue == 0)
    }

    @Test("init(text:) accepts exactly one JSON number")
    func textValidation() {
        for bad in ["", "01", "1.", ".5", "+1", " 1", "1 ", "1e", "0x10", "NaN", "Infinity", "--1", "1.5.2"] {
            #expect(JSONNumber(text: bad) == nil, "\(bad)")
        }
        #expect(JSONNumber(text: "-12.5e+2")?.doubleValue == -1_250)
    }

    @Test("equality and hashing are numeric")
    func numericEquality() throws {
        let spellings = ["4009", "4009.0", "4.009e3", "4009000e-3", "0.4009E4"]
        let numbers = try spellings.map(number)
        for a in numbers {
            for b in numbers {
                #expect(a == b)
                #expect(a.hashValue == b.hashValue)
            }
        }
        #expect(try number("0") == number("-0"))
        #expect(try number("0").hashValue == number("-0.0").hashValue)
        #expect(try number("1.50") == number("1.5"))
        #expect(try number("1.5") != number("1.51"))
        #expect(try number("9007199254740993") != number("9007199254740992"))
        #expect(try number("18446744073709551615") == number("1.8446744073709551615e19"))
        #expect(try number("12345678901234567890123") == number("1.2345678901234567890123e22"))
        #expect(try number("12345678901234567890123").hashValue == number("1.2345678901234567890123e22").hashValue)
        #expect(try number("12345678901234567890123") != number("12345678901234567890124"))
        #expect(JSONValue.number(4009) == .number(4009.0))
        #expect(Set([JSONValue.number(1), .number(1.0), .number(JSONNumber(text: "1e0")!)]).count == 1)
    }

    @Test("made from Swift numbers: integers exact, doubles finite only, decimals with their digits")
    func fromSwift() {
        #expect(JSONNumber(Int64.min).text == "-9223372036854775808")
        #expect(JSONNumber(UInt64.max).text == "18446744073709551615")
        let doubles: [Double] = [4009.0, 0.1, 1e300, -0.5, 1e-5]
        #expect(doubles.map { JSONNumber($0)?.text } == ["4009", "0.1", "1e+300", "-0.5", "1e-05"])
        #expect(doubles.map { JSONNumber($0)?.doubleValue } == doubles)
        #expect(JSONNumber(4009.0).text == "4009")  // a literal: never fails
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(Double.infinity) == nil)
        #expect(JSONNumber(-Double.infinity) == nil)
        #expect(JSONNumber(Float.nan) == nil)
        #expect(JSONNumber(Float(0.1))?.text == "0.1")
        #expect(JSONNumber(Decimal(string: "12.50")!)?.text == "12.5")
        #expect(JSONNumber(Decimal.nan) == nil)
        #expect(JSONValue(Double.nan) == .null)
        let literal: JSONNumber = 2.5
        #expect(literal.text == "2.5")
        let integer: JSONNumber = 42
        #expect(integer.int64Value == 42)
    }
}
