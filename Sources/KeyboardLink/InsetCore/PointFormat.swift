/// Writes point values for people: whole numbers without a fraction, others with at most three decimals.
package enum PointFormat {
    /// `335` for 335.0, `167.5` for 167.5, `0.333` for 1/3, `nan`/`inf`/`-inf` for non-finite values.
    package static func text(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        // Beyond this, Int64 cannot hold the value and the thousandths are below Double's precision anyway.
        guard abs(value) < 1e15 else { return "\(value)" }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded() { return String(Int64(rounded)) }  // also turns -0 into "0"
        return "\(rounded)"
    }
}
