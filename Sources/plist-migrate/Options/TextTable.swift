/// Rows printed as aligned columns; the last column is not padded.
enum TextTable {
    static func print(_ rows: [[String]]) {
        guard let columns = rows.first?.count, columns > 1 else {
            for row in rows { Swift.print(row.joined(separator: "  ")) }
            return
        }
        let widths = (0..<(columns - 1)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let padded = (0..<(columns - 1)).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }
            Swift.print((padded + [row[columns - 1]]).joined(separator: "  "))
        }
    }
}
