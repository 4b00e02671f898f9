/// Minimum, median and mean of repeated measurements.
struct Summary: Sendable {
    let samples: [Double]
    let min: Double
    let median: Double
    let mean: Double
    let max: Double

    /// Summarises `samples`; an empty list gives zeros.
    init(_ samples: [Double]) {
        self.samples = samples
        let sorted = samples.sorted()
        guard let first = sorted.first, let last = sorted.last else {
            min = 0
            median = 0
            mean = 0
            max = 0
            return
        }
        min = first
        max = last
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        mean = sorted.reduce(0, +) / Double(sorted.count)
    }
}

extension Duration {
    /// The duration in seconds, as a double.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
