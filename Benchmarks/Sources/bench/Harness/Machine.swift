import Foundation

/// What the numbers were measured on, for the report.
struct Machine: Codable {
    let cores: Int
    let cpuModel: String
    let memory: String
    let loadAverage: String
    let sqliteVersion: String
    let swiftVersion: String
    let date: String

    static func current(sqliteVersion: String) -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let totalKiB = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal") }
            .flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Double($0) } } ?? 0
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "")
            .split(separator: " ").prefix(3).joined(separator: " ")
        #if compiler(>=6.3)
        let swift = "6.3+"
        #else
        let swift = "< 6.3"
        #endif
        let formatter = ISO8601DateFormatter()
        return Machine(cores: ProcessInfo.processInfo.activeProcessorCount, cpuModel: model,
                       memory: String(format: "%.1f GiB", totalKiB / 1_048_576), loadAverage: load,
                       sqliteVersion: sqliteVersion, swiftVersion: swift, date: formatter.string(from: Date()))
    }
}
