import InsetCore

/// Reads and writes the CLI's geometry arguments: `WxH` sizes, `X,Y,W,H` rectangles and plain numbers.
///
/// Only decimal numbers are accepted (digits, sign, point, exponent): `nan`, `inf` and hexadecimal floats are
/// refused, as are infinite results, negative widths and heights, and anything else.
package enum GeometryArgument {
    /// Reads a size written `WxH`, such as `1024x1366`.
    /// - Throws: `GeometryArgumentError` naming `option`, with an example and the given text.
    package static func size(_ text: String, option: String) throws(GeometryArgumentError) -> Size {
        let expectation = "\(option) expects WxH such as 1024x1366; got '\(text)'"
        let parts = text.split(omittingEmptySubsequences: false) { $0 == "x" || $0 == "X" }
        guard parts.count == 2 else { throw GeometryArgumentError(option: option, message: expectation) }
        let width = try number(parts[0], expectation: expectation, option: option)
        let height = try number(parts[1], expectation: expectation, option: option)
        try requireNotNegative(width, "width", expectation: expectation, option: option)
        try requireNotNegative(height, "height", expectation: expectation, option: option)
        return Size(width: width, height: height)
    }

    /// Reads a rectangle written `X,Y,W,H`, such as `0,1011,1024,355`; X and Y may be negative.
    /// - Throws: `GeometryArgumentError` naming `option`, with an example and the given text.
    package static func rect(_ text: String, option: String) throws(GeometryArgumentError) -> Rect {
        let expectation = "\(option) expects X,Y,W,H such as 0,0,1024,1366; got '\(text)'"
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else { throw GeometryArgumentError(option: option, message: expectation) }
        var values: [Double] = []
        for part in parts {
            values.append(try number(part, expectation: expectation, option: option))
        }
        try requireNotNegative(values[2], "width", expectation: expectation, option: option)
        try requireNotNegative(values[3], "height", expectation: expectation, option: option)
        return Rect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    /// Reads one number of points, such as `20` for `--safe-bottom 20`.
    /// - Parameter allowsNegative: whether values below zero are accepted.
    /// - Throws: `GeometryArgumentError` naming `option`, with an example and the given text.
    package static func number(
        _ text: String,
        option: String,
        allowsNegative: Bool = false
    ) throws(GeometryArgumentError) -> Double {
        let unit = option == "--duration" ? "seconds such as 0.25" : "points such as 20"
        let expectation = "\(option) expects a number of \(unit); got '\(text)'"
        let value = try number(Substring(text), expectation: expectation, option: option)
        if !allowsNegative {
            guard value >= 0 else {
                throw GeometryArgumentError(option: option, message: expectation + ": it must not be negative")
            }
        }
        return value
    }

    /// Writes a size the way `size(_:option:)` reads it: `1024x1366`.
    package static func text(_ size: Size) -> String {
        "\(PointFormat.text(size.width))x\(PointFormat.text(size.height))"
    }

    /// Writes a rectangle the way `rect(_:option:)` reads it: `0,1011,1024,355`.
    package static func text(_ rect: Rect) -> String {
        [rect.minX, rect.minY, rect.width, rect.height].map(PointFormat.text).joined(separator: ",")
    }

    // MARK: - Private

    private static func number(
        _ raw: Substring,
        expectation: String,
        option: String
    ) throws(GeometryArgumentError) -> Double {
        let text = trimmed(raw)
        let allowed = text.unicodeScalars.allSatisfy { scalar in
            ("0"..."9").contains(scalar) || scalar == "." || scalar == "-" || scalar == "+" || scalar == "e"
                || scalar == "E"
        }
        guard !text.isEmpty, allowed, let value = Double(text) else {
            let shown = text.isEmpty ? "an empty part" : "'\(text)'"
            throw GeometryArgumentError(option: option, message: "\(expectation): \(shown) is not a number")
        }
        guard value.isFinite else {
            throw GeometryArgumentError(option: option, message: "\(expectation): '\(text)' is too large")
        }
        return value == 0 ? 0 : value  // no "-0"
    }

    private static func requireNotNegative(
        _ value: Double,
        _ name: String,
        expectation: String,
        option: String
    ) throws(GeometryArgumentError) {
        guard value >= 0 else {
            throw GeometryArgumentError(option: option, message: "\(expectation): the \(name) must not be negative")
        }
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
