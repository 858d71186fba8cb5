#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CoreData
import StressFixtures

/// `fetch-save-memory`: a long-running server's loop, measured. Batch k inserts `batchSize`
/// items and saves, fetches them back, edits each and saves again, keeping no reference to
/// them; after each batch it writes one report line `k registeredObjects residentBytes`.
///
/// Run in a process of its own so that the resident set it reports is this loop's alone.
struct FetchSaveMemory {
    let storePath: String
    let objectCount: Int
    let batchSize: Int
    let reportPath: String
    /// Sets `retainsRegisteredObjects`: the context then keeps every object it saw.
    let retainsRegisteredObjects: Bool

    func run() throws {
        let container = try StressModel.container(path: storePath)
        let context = container.newBackgroundContext()
        context.retainsRegisteredObjects = retainsRegisteredObjects
        var report = ""
        for batch in 1...Int64(max(1, objectCount / batchSize)) {
            try context.performAndWait {
                try insertAndSave(batch: batch, into: context)
                let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
                request.predicate = NSPredicate(format: "batch == %lld", batch)
                for item in try context.fetch(request) { item.setValue(item.int64("touches") + 1, forKey: "touches") }
                try context.save()
            }
            let registered = context.performAndWait { context.registeredObjects.count }
            report += "\(batch) \(registered) \(Self.residentBytes())\n"
        }
        try report.write(toFile: reportPath, atomically: true, encoding: .utf8)
    }

    private func insertAndSave(batch: Int64, into context: NSManagedObjectContext) throws {
        for serial in 0..<Int64(batchSize) {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue(batch, forKey: "batch")
            item.setValue(serial, forKey: "serial")
            item.setValue(StressModel.payload(batch: batch, serial: serial), forKey: "payload")
        }
        try context.save()
    }

    /// The resident set size, from `/proc/self/statm` (its second field, in pages).
    static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
