import CoreData
import StressFixtures

/// `save-batches`: saves numbered batches until killed, logging each batch only after its
/// `save()` returned.
///
/// Batch k inserts `batchSize` items (batch k, serials 0..<batchSize) and, in the same save,
/// touches up to `batchSize / 2` items inserted earlier in this run (`touches += 1`) and updates
/// every counter (`value += 1`, `lastBatch = k`, the "touches" counter by the number of touches).
/// So in any consistent store: every batch is complete, each counter's value is the number of
/// batches, and the items' touches add up to the "touches" counter.
struct SaveBatches {
    let storePath: String
    let batchSize: Int
    let logPath: String
    /// Stop after this many batches (0: run until killed).
    let limit: Int

    func run() throws {
        let log = try AppendOnlyLog(path: logPath)
        let container = try StressModel.container(path: storePath)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let counters = try loadCounters(context)
            var batch = counters.values.map { $0.int64("lastBatch") }.max() ?? 0
            var touchable: [NSManagedObject] = []
            var saved = 0
            while limit == 0 || saved < limit {
                batch += 1
                var inserted: [NSManagedObject] = []
                for serial in 0..<Int64(batchSize) {
                    let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                    item.setValue(batch, forKey: "batch")
                    item.setValue(serial, forKey: "serial")
                    item.setValue(StressModel.payload(batch: batch, serial: serial), forKey: "payload")
                    inserted.append(item)
                }
                var touched = Set<ObjectIdentifier>()
                for _ in 0..<(batchSize / 2) where !touchable.isEmpty {
                    let item = touchable.randomElement()!
                    guard touched.insert(ObjectIdentifier(item)).inserted else { continue }
                    item.setValue(item.int64("touches") + 1, forKey: "touches")
                }
                for name in StressModel.batchCounterNames {
                    let counter = counters[name]!
                    counter.setValue(counter.int64("value") + 1, forKey: "value")
                    counter.setValue(batch, forKey: "lastBatch")
                }
                let touchCounter = counters[StressModel.touchCounterName]!
                touchCounter.setValue(touchCounter.int64("value") + Int64(touched.count), forKey: "value")
                touchCounter.setValue(batch, forKey: "lastBatch")
                try context.save()
                try log.append(String(batch))
                saved += 1
                touchable += inserted
                if touchable.count > 200 { touchable.removeFirst(touchable.count - 200) }
            }
        }
    }

    /// The counters by name, created (in a save of their own) when the store is new.
    private func loadCounters(_ context: NSManagedObjectContext) throws -> [String: NSManagedObject] {
        var byName: [String: NSManagedObject] = [:]
        for counter in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Counter")) {
            if let name = counter.value(forKey: "name") as? String { byName[name] = counter }
        }
        let names = StressModel.batchCounterNames + [StressModel.touchCounterName]
        // All counters come in one save, so finding only some of them means a torn save.
        guard byName.isEmpty || names.allSatisfy({ byName[$0] != nil }) else {
            throw StressFailure("the store holds only the counters \(byName.keys.sorted())")
        }
        for name in names where byName[name] == nil {
            let counter = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context)
            counter.setValue(name, forKey: "name")
            byName[name] = counter
        }
        if context.hasChanges { try context.save() }
        return byName
    }
}
