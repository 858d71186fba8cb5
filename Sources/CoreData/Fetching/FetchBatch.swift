/// A run of `fetchBatchSize` consecutive results of a batched fetch whose rows have not been
/// read. Each member fault points at its batch and its slot in it; the first member to fire
/// reads the rows of the whole batch in one query, so touching objects in result order costs
/// one query per batch and memory grows with the batches touched, not with the result.
final class FetchBatch {
    /// The members' IDs, as compact as the store listed them (eight bytes a row): a member that
    /// never fired makes its ID from here. Kept for as long as a member points here.
    let members: ObjectIDList
    private var isPending = true

    init(_ members: ObjectIDList) {
        precondition(members.count <= Int(UInt32.max), "a fetch batch of more than 2^32 rows")
        self.members = members
    }

    /// Reads the rows of the members that are still faults into the context's row cache, where
    /// firing faults find them. Runs on the context's queue, as faults fire there.
    func load(in context: NSManagedObjectContext) {
        guard isPending else { return }
        isPending = false
        var wanted: [NSManagedObjectID] = []
        for slot in members.indices {
            guard let object = context.registered.object(named: members.name(at: slot)), object.fetchBatch === self else { continue }
            object.leaveFetchBatch()
            if object.faultFlag, object.readAheadRow == nil { wanted.append(object.objectID) }
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
        registered.reserveCapacity(registered.count + ids.count)
        for start in stride(from: 0, to: ids.count, by: batchSize) {
            objects += batchFaults(for: ids[start..<min(start + batchSize, ids.count)])
        }
        return objects
    }

    /// The objects for `members`, in order, those whose rows are not at hand made faults of one
    /// batch; a new fault makes no ID.
    func batchFaults(for members: Slice<ObjectIDList>) -> [NSManagedObject] {
        let batch = FetchBatch(members.base.extracting(members.startIndex..<members.endIndex))
        return batch.members.indices.map { slot in
            let name = batch.members.name(at: slot)
            guard let object = registeredObject(named: name) else {
                return registerFault(of: batch.members.entity(at: slot)) { $0.becomeFault(of: batch, at: slot) }
            }
            if object.faultFlag, object.readAheadRow == nil { object.join(batch, at: slot) }
            return object
        }
    }
}
