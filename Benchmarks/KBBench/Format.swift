/// Number and table formatting without Foundation (the benchmark links only what the daemon links).
enum Format {
    /// `value` with `decimals` digits after the point, thousands separated by a thin space-free comma.
    static func number(_ value: Double, decimals: Int = 0) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (abs(value) * scale).rounded()
        let integerPart = Int(rounded / scale)
        let fraction = Int(rounded - Double(integerPart) * scale)
        var digits = String(integerPart)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        grouped = digits + grouped
        if decimals > 0 {
            let fractionText = String(fraction)
            grouped += "." + String(repeating: "0", count: decimals - fractionText.count) + fractionText
        }
        return (value < 0 && rounded != 0 ? "-" : "") + grouped
    }

    /// A duration in milliseconds with three decimals.
    static func milliseconds(_ seconds: Double) -> String {
        number(seconds * 1000, decimals: 3)
    }

    /// Left-aligns the first column and right-aligns the others.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in all {
            for (index, cell) in row.enumerated() { widths[index] = Swift.max(widths[index], cell.count) }
        }
        func line(_ row: [String]) -> String {
            row.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}
