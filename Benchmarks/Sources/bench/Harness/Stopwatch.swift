import Foundation

/// Wall-clock timing on the monotonic clock, in milliseconds.
enum Stopwatch {
    static func nanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Kept out of line so that callgrind can cut a profile at the timed body
    /// (`--dump-before='*Stopwatch*milliseconds*'`, the same with `--dump-after`); such a dump
    /// counts every thread, postgres-nio's event loops and the cooperative pool included.
    @inline(never)
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = nanoseconds()
        try body()
        return Double(nanoseconds() - start) / 1e6
    }
}

/// The process's resident set, read from /proc/self/statm (pages × page size).
enum ResidentSet {
    static func bytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// Keeps a computed value alive so the optimiser cannot drop the work that produced it.
@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
