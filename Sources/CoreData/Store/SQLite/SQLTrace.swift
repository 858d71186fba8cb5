import Logging

/// Apple's `-com.apple.CoreData.SQLDebug N` launch argument, as `CORE_DATA_SQL_DEBUG=N`: each
/// statement the SQLite store runs is logged through swift-log under the label `CoreData.SQL`
/// (route it with `LoggingSystem.bootstrap`; by default swift-log writes to standard error).
///
/// - 1: the statement and how long it took;
/// - 2: also the number of rows it returned or changed;
/// - 3: also its bound values;
/// - 4: also SQLite's `EXPLAIN QUERY PLAN`.
///
/// Read once, at first use. When the variable is unset, `start` returns nil after one branch on
/// an initialised global, and nothing is measured, formatted or logged.
struct SQLTrace {
    static let level: Int = {
        guard let text = ProcessInfo.processInfo.environment["CORE_DATA_SQL_DEBUG"], let level = Int(text) else { return 0 }
        return max(0, min(level, 4))
    }()

    static let logger = Logger(label: "CoreData.SQL")

    private let sql: String
    private let started: ContinuousClock.Instant

    /// Logs `sql` (and, from level 3, `bindings`) and starts timing it; nil when tracing is off.
    @inline(__always)
    static func start(_ sql: String, _ bindings: [SQLValue]) -> SQLTrace? {
        guard level > 0 else { return nil }
        return SQLTrace(sql: sql, bindings: bindings)
    }

    private init(sql: String, bindings: [SQLValue]) {
        self.sql = sql
        Self.logger.info("sql: \(sql)")
        if Self.level >= 3 {
            for (index, value) in bindings.enumerated() {
                Self.logger.info("bind[\(index)]: \(value.traceDescription)")
            }
        }
        started = .now
    }

    /// Logs the time since `start`, the row count from level 2 and, from level 4, the plan
    /// `queryPlan` reads (called only then, after the statement has finished).
    func finish(rows: Int, queryPlan: () -> [String]) {
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let time = String(format: "%.6f", seconds)
        Self.logger.info(Self.level >= 2 ? "time: \(time) s, rows: \(rows)" : "time: \(time) s")
        guard Self.level >= 4 else { return }
        for line in queryPlan() { Self.logger.info("query plan: \(line)") }
    }
}

extension SQLValue {
    /// A bound value as a log line shows it: text quoted, blobs by size.
    var traceDescription: String {
        switch self {
        case .null: "NULL"
        case .integer(let number): "\(number)"
        case .real(let number): "\(number)"
        case .text(let text): "'\(text)'"
        case .blob(let bytes): "<\(bytes.count) bytes>"
        }
    }
}
