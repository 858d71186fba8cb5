/// A store that keeps rows in memory only: fast, isolated, gone when the process ends. Useful
/// for tests and caches; queries are judged by the in-memory evaluator.
final class InMemoryStore: NSPersistentStore, BuiltInStore, @unchecked Sendable {
    private var rowsByKey: [String: [Int64: RowSnapshot]] = [:]
    private var toMany: [ToManyKey: [NSManagedObjectID]] = [:]
    private var nextKey: [String: Int64] = [:]

    private struct ToManyKey: Hashable {
        let entity: String
        let relationship: String
        let source: Int64
    }

    func load(model: NSManagedObjectModel) throws {
        identifier = UUID().uuidString
        metadata = [NSStoreUUIDKey: identifier!, NSStoreTypeKey: NSInMemoryStoreType,
                    NSStoreModelVersionHashesKey: model.entityVersionHashesByName]
    }

    func close() {}

    func table(_ entity: NSEntityDescription) -> String { entity.rootEntity.name ?? "" }

    func fetchRows(_ fetch: StoreFetch) throws -> [RowSnapshot] {
        try locked {
            let accepted = Set(fetch.includesSubentities ? SQLiteSchema.entityNumbers(for: fetch.entity) : [fetch.entity.entityNumber])
            let candidates = (rowsByKey[table(fetch.entity)] ?? [:]).values.filter { accepted.contains($0.objectID.entity.entityNumber) }
            var views = try InMemoryQuery.filter(candidates.map { InMemoryRowView(row: $0, store: self) }, by: fetch.predicate)
            try InMemoryQuery.sort(&views, by: fetch.sortDescriptors, tieBreak: { $0.row.objectID < $1.row.objectID })
            return InMemoryQuery.page(views, offset: fetch.offset, limit: fetch.limit).map(\.row)
        }
    }

    func fetchObjectIDList(_ fetch: StoreFetch) throws -> ObjectIDList {
        ObjectIDList(try fetchRows(fetch).map(\.objectID))
    }

    func count(_ fetch: StoreFetch) throws -> Int {
        try fetchRows(fetch).count
    }

    func rows(for ids: [NSManagedObjectID]) throws -> [NSManagedObjectID: RowSnapshot] {
        locked {
            var result: [NSManagedObjectID: RowSnapshot] = [:]
            for id in ids {
                if let key = id.primaryKey, let row = rowsByKey[table(id.entity)]?[key] { result[id] = row }
            }
            return result
        }
    }

    func row(for id: NSManagedObjectID) -> RowSnapshot? {
        locked { id.primaryKey.flatMap { rowsByKey[table(id.entity)]?[$0] } }
    }

    func relatedObjectIDs(_ relationship: NSRelationshipDescription, of source: NSManagedObjectID) throws -> [NSManagedObjectID] {
        locked {
            guard let key = source.primaryKey else { return [] }
            return toMany[ToManyKey(entity: table(source.entity), relationship: relationship.name, source: key)] ?? []
        }
    }

    func allocatePrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        locked {
            let current = nextKey[table(entity), default: 0]
            nextKey[table(entity)] = current + Int64(count)
            return Array((current + 1)...(current + Int64(count)))
        }
    }

    func apply(_ changes: StoreChanges) throws {
        try locked {
            var conflicts: [(NSManagedObjectID, RowSnapshot?)] = []
            for (row, expected) in changes.updated where self.row(for: row.objectID)?.version != expected {
                conflicts.append((row.objectID, self.row(for: row.objectID)))
            }
            for (id, expected) in changes.deleted where self.row(for: id)?.version != expected {
                conflicts.append((id, self.row(for: id)))
            }
            if !conflicts.isEmpty { throw StoreVersionConflict(conflicts: conflicts.map { ($0.0, $0.1) }) }
            for row in changes.inserted + changes.updated.map(\.row) { store(row) }
            for change in changes.toMany {
                toMany[ToManyKey(entity: table(change.source.entity), relationship: change.relationship.name, source: change.source.primaryKey!)] = change.members
            }
            for (id, _) in changes.deleted { remove(id) }
        }
    }

    func store(_ row: RowSnapshot) {
        rowsByKey[table(row.objectID.entity), default: [:]][row.objectID.primaryKey!] = row
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

/// A stored row seen as an object a predicate can walk: attributes by name, to-one
/// relationships as further views, to-many relationships as arrays of views.
final class InMemoryRowView: KeyValueReadable, EntityDescribing, ObjectIDProviding {
    let row: RowSnapshot
    private unowned let store: InMemoryStore

    init(row: RowSnapshot, store: InMemoryStore) {
        self.row = row
        self.store = store
    }

    var describedEntity: NSEntityDescription { row.objectID.entity }
    var objectID: NSManagedObjectID { row.objectID }

    func readValue(forKey key: String) -> Any? {
        guard let relationship = row.objectID.entity.relationshipsByName[key] else { return row.values[key] }
        if relationship.isToMany {
            let ids = (try? store.relatedObjectIDs(relationship, of: row.objectID)) ?? []
            return ids.compactMap { store.row(for: $0) }.map { InMemoryRowView(row: $0, store: store) }
        }
        guard let target = row.values[key] as? NSManagedObjectID, let targetRow = store.row(for: target) else { return nil }
        return InMemoryRowView(row: targetRow, store: store)
    }
}
