/// Median and minimum of a variant's samples.
struct Summary: Codable {
    let samples: [Double]
    let median: Double
    let min: Double

    init(_ samples: [Double]) {
        self.samples = samples
        let sorted = samples.sorted()
        min = sorted.first ?? .nan
        if sorted.isEmpty {
            median = .nan
        } else if sorted.count % 2 == 1 {
            median = sorted[sorted.count / 2]
        } else {
            median = (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }
}
