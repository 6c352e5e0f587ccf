/// A plist `<date>`, read as strictly as Python's plistlib reads it: ISO 8601
/// UTC, `YYYY-MM-DDTHH:MM:SSZ`, with a real calendar date (a month of 1–12, a day the month
/// has, February 29 only in a leap year) and a real time (hours 0–23, minutes and seconds 0–59).
public enum PlistDate {
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z")
        else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return year >= 1 && (1...12).contains(month) && (1...days[month - 1]).contains(day)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second)
    }
}
