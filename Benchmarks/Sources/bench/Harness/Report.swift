import Foundation

/// The results of one run, as printed and as written to JSON.
struct Report: Codable {
    struct VariantResult: Codable {
        let label: String
        let role: Role
        let unit: Unit
        let summary: Summary
        /// Median over the floor's median, and over GRDB records' median, when the case has them.
        let ratioToFloor: Double?
        let ratioToGRDB: Double?
    }

    struct TargetResult: Codable {
        let statement: String
        let value: Double
        /// "ratio", or the subject's unit ("ms", "MiB") for a limit on the figure itself.
        let measure: String
        let limit: Double?
        /// nil for an informational ratio.
        let met: Bool?
    }

    struct CaseResult: Codable {
        let id: String
        let title: String
        let explanation: String
        let seconds: Double
        let variants: [VariantResult]
        let targets: [TargetResult]
        let notes: [String]
    }

    let command: String
    let machine: Machine
    let settings: [String: String]
    var cases: [CaseResult] = []
}

extension Report.CaseResult {
    init(_ benchmark: BenchmarkCase, results: [(Variant, Summary)], seconds: Double, notes: [String]) {
        func median(_ label: String) -> Double? { results.first { $0.0.label == label }?.1.median }
        let floor = results.first { $0.0.role.isFloor }?.1.median
        let grdb = results.first { $0.0.role == .grdbRecords }?.1.median
        variants = results.map { variant, summary in
            let timed = variant.unit == .milliseconds
            return Report.VariantResult(
                label: variant.label, role: variant.role, unit: variant.unit, summary: summary,
                ratioToFloor: timed ? floor.map { summary.median / $0 } : nil,
                ratioToGRDB: timed ? grdb.map { summary.median / $0 } : nil)
        }
        targets = benchmark.targets.compactMap { target in
            guard let subject = median(target.subject) else { return nil }
            if let baseLabel = target.base {
                guard let base = median(baseLabel) else { return nil }
                let ratio = subject / base
                let met = target.strict ? ratio < target.limit : ratio <= target.limit
                return Report.TargetResult(statement: target.statement, value: ratio, measure: "ratio",
                                           limit: target.informational ? nil : target.limit, met: target.informational ? nil : met)
            }
            let met = target.strict ? subject < target.limit : subject <= target.limit
            let unit = results.first { $0.0.label == target.subject }?.0.unit ?? .milliseconds
            return Report.TargetResult(statement: target.statement, value: subject, measure: unit.rawValue, limit: target.limit, met: met)
        }
        id = benchmark.id
        title = benchmark.title
        explanation = benchmark.explanation
        self.seconds = seconds
        self.notes = notes
    }
}

/// The plain-text table.
enum TableFormat {
    static func number(_ value: Double) -> String {
        if value.isNaN { return "-" }
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        if value >= 1 { return String(format: "%.2f", value) }
        return String(format: "%.3f", value)
    }

    static func ratio(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "" }
        if value > 0 && value < 0.01 { return String(format: "%.1ex", value) }
        return value >= 10 ? String(format: "%.0fx", value) : String(format: "%.2fx", value)
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }

    static func header(_ report: Report) -> String {
        let machine = report.machine
        return """
            Portable Core Data benchmarks: \(report.command)
            machine: \(machine.cores) cores, \(machine.cpuModel), \(machine.memory); load average at start \(machine.loadAverage)
            SQLite \(machine.sqliteVersion); \(report.settings.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            date: \(machine.date)
            """
    }

    static func caseTable(_ result: Report.CaseResult) -> String {
        var lines = ["", "\(result.id): \(result.title)  (\(String(format: "%.1f", result.seconds)) s)"]
        lines.append("  " + pad("variant", 34) + pad("median", 11, right: true) + pad("min", 11, right: true)
                     + pad("x floor", 9, right: true) + pad("x GRDB", 9, right: true))
        for variant in result.variants {
            let unit = variant.unit.rawValue
            lines.append("  " + pad(variant.label, 34)
                         + pad("\(number(variant.summary.median)) \(unit)", 11, right: true)
                         + pad("\(number(variant.summary.min)) \(unit)", 11, right: true)
                         + pad(ratio(variant.ratioToFloor), 9, right: true)
                         + pad(ratio(variant.ratioToGRDB), 9, right: true))
        }
        for target in result.targets { lines.append("  " + targetLine(target)) }
        for note in result.notes { lines.append("  note: \(note)") }
        return lines.joined(separator: "\n")
    }

    static func targetLine(_ target: Report.TargetResult) -> String {
        let value = target.measure == "ratio" ? ratio(target.value) : "\(number(target.value)) \(target.measure)"
        let verdict: String
        switch target.met {
        case true?: verdict = "MET"
        case false?: verdict = "SHORT"
        case nil: verdict = "info"
        }
        return "\(pad("[\(verdict)]", 8))\(target.statement): \(value)"
    }

    static func summary(_ report: Report) -> String {
        var lines = ["", "Targets"]
        for result in report.cases {
            for target in result.targets { lines.append("  \(pad(result.id, 16))" + targetLine(target)) }
        }
        return lines.joined(separator: "\n")
    }
}
