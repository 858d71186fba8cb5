#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CoreData
import StressFixtures

/// `disk-full`: saves into a store whose files may not grow (RLIMIT_FSIZE, the way a full disk
/// refuses writes), then saves again once the limit is lifted, reporting what it saw.
///
/// Runs in its own process because the file-size limit applies to the whole process.
struct DiskFull {
    let storePath: String
    let reportPath: String
    let objectCount: Int
    let payloadBytes: Int

    struct Report: Codable {
        var baselineSaved = false
        var limitedSaveErrors: [String] = []
        var limitedSaveErrorCodes: [Int] = []
        var hasChangesAfterFailure = false
        var insertedAfterFailure = 0
        var retryError: String?
        var reopenedCount = -1
        var payloadsIntact = false
    }

    func run() throws {
        signal(SIGXFSZ, SIG_IGN)  // a write past the limit then fails with EFBIG instead of killing us
        var report = Report()
        let container = try StressModel.container(path: storePath)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for serial in 0..<4 {
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue(Int64(0), forKey: "batch")
                item.setValue(Int64(serial), forKey: "serial")
                item.setValue(StressModel.payload(batch: 0, serial: Int64(serial)), forKey: "payload")
            }
            try context.save()
            report.baselineSaved = true

            for serial in 0..<objectCount {
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue(Int64(1), forKey: "batch")
                item.setValue(Int64(serial), forKey: "serial")
                item.setValue(StressModel.bigPayload(serial: serial, bytes: payloadBytes), forKey: "payload")
            }
            let limit = Self.largestFileSize(storePath) + 8192
            try Self.setFileSizeLimit(soft: rlim_t(limit))
            // Twice: a failed save must leave the context able to fail (or succeed) again.
            for _ in 0..<2 {
                do {
                    try context.save()
                } catch {
                    report.limitedSaveErrors.append(String(describing: error))
                    report.limitedSaveErrorCodes.append((error as NSError).code)
                }
            }
            report.hasChangesAfterFailure = context.hasChanges
            report.insertedAfterFailure = context.insertedObjects.count
            try Self.setFileSizeLimit(soft: nil)
            do { try context.save() } catch { report.retryError = String(describing: error) }
        }
        // A second stack reads everything back from the file.
        let reader = try StressModel.container(path: storePath).newBackgroundContext()
        try reader.performAndWait {
            let items = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
            report.reopenedCount = items.count
            report.payloadsIntact = items.allSatisfy { item in
                let batch = item.int64("batch"), serial = item.int64("serial")
                let expected = batch == 0 ? StressModel.payload(batch: 0, serial: serial) : StressModel.bigPayload(serial: Int(serial), bytes: payloadBytes)
                return item.value(forKey: "payload") as? String == expected
            }
        }
        try JSONEncoder().encode(report).write(to: URL(fileURLWithPath: reportPath))
    }

    /// The largest of the store's files (database, WAL), the point past which writes must fail.
    private static func largestFileSize(_ path: String) -> Int {
        ["", "-wal"].compactMap { suffix in
            (try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? NSNumber)?.intValue
        }.max() ?? 0
    }

    /// Sets the soft limit on file sizes; nil raises it back to the hard limit ("space freed").
    private static func setFileSizeLimit(soft: rlim_t?) throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
        limit.rlim_cur = soft.map { min($0, limit.rlim_max) } ?? limit.rlim_max
        guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { throw StressFailure("setrlimit(RLIMIT_FSIZE) failed: errno \(errno)") }
    }
}
