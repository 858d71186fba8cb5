/// A run of `fetchBatchSize` consecutive results of a batched fetch whose rows have not been
/// read. Each member fault points at its batch; the first member to fire reads the rows of the
/// whole batch in one query, so touching objects in result order costs one query per batch
/// and memory grows with the batches touched, not with the result.
final class FetchBatch {
    /// Emptied once read, so a batch holds its IDs only while it is pending.
    private var ids: [NSManagedObjectID]

    init(_ ids: [NSManagedObjectID]) {
        self.ids = ids
    }

    /// Reads the rows of the members that are still faults into the context's row cache, where
    /// firing faults find them. Runs on the context's queue, as faults fire there.
    func load(in context: NSManagedObjectContext) {
        let pending = ids
        ids = []
        var wanted: [NSManagedObjectID] = []
        for id in pending {
            guard let object = context.registeredObject(for: id), object.fetchBatch === self else { continue }
            object.fetchBatch = nil
            if object.faultFlag, context.rowCache[id] == nil { wanted.append(id) }
        }
        // A failed read leaves the rows uncached: each fault then reads its own row, as an
        // unbatched fault does.
        guard let rows = try? context.upstreamRows(for: wanted) else { return }
        for (id, row) in rows { context.rowCache[id] = row }
    }
}

extension NSManagedObjectContext {
    /// A batched fetch (`fetchBatchSize > 0`): only the matching IDs are read now, in order;
    /// every object is a fault whose row comes with its batch when first touched.
    ///
    /// Used when the context has no unsaved changes that could affect the fetch; otherwise the
    /// result must be re-judged in memory and is read whole.
    func batchedObjects(_ fetch: StoreFetch, batchSize: Int) throws -> [NSManagedObject] {
        let ids = try upstreamObjectIDList(fetch)
        var objects: [NSManagedObject] = []
        objects.reserveCapacity(ids.count)
        for start in stride(from: 0, to: ids.count, by: batchSize) {
            objects += batchFaults(for: ids[start..<min(start + batchSize, ids.count)])
        }
        return objects
    }

    /// The objects for `ids`, those whose rows are not at hand made faults of one batch.
    func batchFaults(for members: some Collection<NSManagedObjectID>) -> [NSManagedObject] {
        // Made once: an `ObjectIDList` makes a new ID each time one is read.
        let ids = Array(members)
        let batch = FetchBatch(ids)
        return ids.map { id in
            let object = self.object(with: id)
            if object.faultFlag, rowCache[id] == nil { object.fetchBatch = batch }
            return object
        }
    }
}
