/// A store that numbers its rows itself (Z_PK), as the built-in stores do.
protocol PrimaryKeyAllocating: NSPersistentStore {
    /// Reserves `count` new primary keys for rows of `entity`.
    func allocatePrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64]
}

extension RowStore where Self: PrimaryKeyAllocating {
    /// One reservation per entity, however many objects are new.
    func permanentIDs(for objects: [NSManagedObject]) throws -> [NSManagedObjectID] {
        var ids = [NSManagedObjectID?](repeating: nil, count: objects.count)
        let positionsByEntity = Dictionary(grouping: objects.indices, by: { ObjectIdentifier(objects[$0].entity) })
        for positions in positionsByEntity.values {
            let entity = objects[positions[0]].entity
            let keys = try allocatePrimaryKeys(for: entity, count: positions.count)
            for (position, key) in zip(positions, keys) { ids[position] = objectID(for: entity, primaryKey: key) }
        }
        return ids.map { $0! }
    }
}
