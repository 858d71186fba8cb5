/// Rows kept in memory and judged by the in-memory evaluator: the whole of the in-memory store,
/// and the index an atomic store keeps of its cache nodes so both answer fetches, counts and
/// relationship reads with the same code.
///
/// Not thread-safe on its own: the store owning it works on it under its lock.
final class InMemoryTable {
    private var rowsByKey: [String: [Int64: RowSnapshot]] = [:]
    private var toMany: [ToManyKey: [NSManagedObjectID]] = [:]

    private struct ToManyKey: Hashable {
        let entity: String
        let relationship: String
        let source: Int64
    }

    /// Rows of an inheritance hierarchy share a key space, as they share a SQLite table.
    private func table(_ entity: NSEntityDescription) -> String { entity.rootEntity.name ?? "" }

    private func toManyKey(_ relationship: NSRelationshipDescription, of source: NSManagedObjectID) -> ToManyKey? {
        source.primaryKey.map { ToManyKey(entity: table(source.entity), relationship: relationship.name, source: $0) }
    }

    // MARK: Reading

    func fetchRows(_ fetch: StoreFetch) throws -> [RowSnapshot] {
        let accepted = Set(fetch.includesSubentities ? SQLiteSchema.entityNumbers(for: fetch.entity) : [fetch.entity.entityNumber])
        let candidates = (rowsByKey[table(fetch.entity)] ?? [:]).values.filter { accepted.contains($0.objectID.entity.entityNumber) }
        var views = try InMemoryQuery.filter(candidates.map { InMemoryRowView(row: $0, table: self) }, by: fetch.predicate)
        try InMemoryQuery.sort(&views, by: fetch.sortDescriptors, tieBreak: { $0.row.objectID < $1.row.objectID })
        return InMemoryQuery.page(views, offset: fetch.offset, limit: fetch.limit).map(\.row)
    }

    func rows(for ids: [NSManagedObjectID]) -> [NSManagedObjectID: RowSnapshot] {
        var result: [NSManagedObjectID: RowSnapshot] = [:]
        for id in ids {
            if let row = row(for: id) { result[id] = row }
        }
        return result
    }

    func row(for id: NSManagedObjectID) -> RowSnapshot? {
        id.primaryKey.flatMap { rowsByKey[table(id.entity)]?[$0] }
    }

    func relatedObjectIDs(_ relationship: NSRelationshipDescription, of source: NSManagedObjectID) -> [NSManagedObjectID] {
        toManyKey(relationship, of: source).flatMap { toMany[$0] } ?? []
    }

    // MARK: Writing

    /// The updated and deleted rows whose version moved on since the saving context read them.
    func versionConflict(with changes: StoreChanges) -> StoreVersionConflict? {
        var conflicts: [(objectID: NSManagedObjectID, storedRow: RowSnapshot?)] = []
        for (row, expected) in changes.updated where self.row(for: row.objectID)?.version != expected {
            conflicts.append((row.objectID, self.row(for: row.objectID)))
        }
        for (id, expected) in changes.deleted where row(for: id)?.version != expected {
            conflicts.append((id, row(for: id)))
        }
        return conflicts.isEmpty ? nil : StoreVersionConflict(conflicts: conflicts)
    }

    /// Applies a save whose versions were checked.
    func apply(_ changes: StoreChanges) {
        for row in changes.inserted + changes.updated.map(\.row) { store(row) }
        for change in changes.toMany { setMembers(change.members, of: change.relationship, for: change.source) }
        for (id, _) in changes.deleted { remove(id) }
    }

    func store(_ row: RowSnapshot) {
        rowsByKey[table(row.objectID.entity), default: [:]][row.objectID.primaryKey!] = row
    }

    func setMembers(_ members: [NSManagedObjectID], of relationship: NSRelationshipDescription, for source: NSManagedObjectID) {
        guard let key = toManyKey(relationship, of: source) else { return }
        toMany[key] = members
    }

    /// Removes a row, its to-many memberships, and every reference to it from other rows.
    func remove(_ id: NSManagedObjectID) {
        guard let key = id.primaryKey else { return }
        rowsByKey[table(id.entity)]?[key] = nil
        toMany = toMany.filter { $0.key.source != key || $0.key.entity != table(id.entity) }
        for (entry, members) in toMany where members.contains(id) {
            toMany[entry] = members.filter { $0 != id }
        }
        for (tableName, rows) in rowsByKey {
            for (rowKey, row) in rows {
                var changed = row
                for ordinal in row.values.slots.indices {
                    if case .objectID(let target)? = row.values[ordinal: ordinal], target == id { changed.values[ordinal: ordinal] = nil }
                }
                rowsByKey[tableName]?[rowKey] = changed
            }
        }
    }
}
