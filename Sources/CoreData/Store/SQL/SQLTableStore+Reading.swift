/// The read path of both SQL stores, written once: fetches, counts, faults, to-many members
/// and dictionary fetches, each one statement whose text is made once per shape, decoded by
/// the catalog's row decoders.
extension SQLTableStore {
    /// The table of `entity`'s rows.
    func layout(for entity: NSEntityDescription) -> SQLTableLayout {
        guard let layout = catalog.layout(for: entity) else {
            preconditionFailure("The entity \(entity.name ?? "?") has no table in \(storeName)")
        }
        return layout
    }

    func entity(number: Int64, fallback: NSEntityDescription) -> NSEntityDescription {
        catalog.entity(number: number, fallback: fallback)
    }

    /// Runs `body`, turning the database's failures into the Cocoa errors a caller sees.
    func mappingFailures<T>(saving: Bool = false, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as any SQLStoreFailure {
            throw failure.cocoaError(saving: saving, storeURL: url, storeName: storeName)
        }
    }

    func fetchRows(_ fetch: StoreFetch) throws -> [RowSnapshot] {
        let catalog = catalog
        let plan = try SQLFetchPlan(fetch: fetch, dialect: dialect)
        let sql = plan.sql(selecting: layout(for: fetch.entity).selectList)
        return try read { session in
            var rows = RowSnapshotCollector(store: self, catalog: catalog)
            try session.forEachRow(of: plan, sql: sql, into: &rows)
            return rows.rows
        }
    }

    func fetchObjectIDList(_ fetch: StoreFetch) throws -> ObjectIDList {
        let plan = try SQLFetchPlan(fetch: fetch, dialect: dialect)
        let sql = plan.sql(selecting: "t0.Z_PK, t0.Z_ENT")
        return try read(singleStatement: true) { session in
            var ids = ObjectIDCollector(builder: ObjectIDListBuilder(store: self), catalog: catalog, fallback: fetch.entity)
            try session.forEachRow(of: plan, sql: sql, into: &ids)
            return ids.builder.build()
        }
    }

    func count(_ fetch: StoreFetch) throws -> Int {
        var unbounded = fetch
        unbounded.sortDescriptors = []
        let plan = try SQLFetchPlan(fetch: unbounded, dialect: dialect)
        return try read(singleStatement: true) { session in
            guard case .integer(let count)? = try session.scalar(plan.countSQL, plan.bindings) else { return 0 }
            return Int(count)
        }
    }

    /// One statement per table the IDs live in, the keys bound as one array.
    func rows(for ids: [NSManagedObjectID]) throws -> [NSManagedObjectID: RowSnapshot] {
        let groups = Dictionary(grouping: ids.filter { $0.primaryKey != nil }, by: { $0.entity.rootEntity.name ?? "" })
        let catalog = catalog
        return try read(singleStatement: groups.count <= 1) { session in
            var result: [NSManagedObjectID: RowSnapshot] = [:]
            result.reserveCapacity(ids.count)
            for (rootName, members) in groups {
                guard let layout = catalog.layouts[rootName] else { continue }
                try session.query(layout.rowsByKeysQuery, [SQLValue.keyArray(members)]) { row in
                    let snapshot = try decodeRow(row, catalog)
                    result[snapshot.objectID] = snapshot
                }
            }
            return result
        }
    }

    func relatedObjectIDs(_ relationship: NSRelationshipDescription, of source: NSManagedObjectID) throws -> [NSManagedObjectID] {
        guard let sourceKey = source.primaryKey, let destination = relationship.destinationEntity else { return [] }
        let sql = SQLiteSchema.membersQuery(of: relationship, dialect: dialect)
        return try read(singleStatement: true) { session in
            var ids: [NSManagedObjectID] = []
            try session.query(sql, [.integer(sourceKey)]) { row in
                ids.append(objectID(for: catalog.entity(number: row.int64(at: 1), fallback: destination), primaryKey: row.int64(at: 0)))
            }
            return ids
        }
    }

    func fetchDictionaries(_ request: DictionaryFetch) throws -> [NSDictionary] {
        try read { try dictionaries(request, $0) }
    }

    /// A row of `layout.selectList`: Z_PK, Z_ENT, Z_OPT, then the table's columns. A row naming
    /// an entity number the model lacks is refused, never trusted.
    func decodeRow(_ row: some SQLRow, _ catalog: SQLTableCatalog) throws -> RowSnapshot {
        let decoder = try catalog.rowDecoder(forRowOf: row.int64(at: 1))
        let values = try decoder.values(of: row, entity: catalog.entity(number:fallback:), objectID: objectID)
        return RowSnapshot(objectID: objectID(for: decoder.entity, primaryKey: row.int64(at: 0)), version: row.int64(at: 2), values: values)
    }

    /// Optimistic locking, in one statement per save whatever the number of rows and tables:
    /// every updated or deleted row must still have the version the context read, or the whole
    /// save is refused with the rows as they now are. On PostgreSQL the statement also locks
    /// the rows until the commit (`FOR UPDATE`), so a save of another machine cannot slip in
    /// between check and write; SQLite's writer holds the file's write lock already.
    func checkVersions(_ changes: StoreChanges, _ session: Session) throws {
        var expected: [NSManagedObjectID: Int64] = [:]
        expected.reserveCapacity(changes.updated.count + changes.deleted.count)
        for (row, version) in changes.updated { expected[row.objectID] = version }
        for (objectID, version) in changes.deleted { expected[objectID] = version }
        let groups = Dictionary(grouping: expected.keys.filter { $0.primaryKey != nil }, by: { layout(for: $0.entity).table })
        guard !groups.isEmpty else { return }
        // Tables in name order, and rows in key order within each, so that two saves lock in
        // the same order and never wait on each other in a cycle.
        let tables = groups.keys.sorted()
        var stored: [String: [Int64: Int64]] = [:]
        try session.query(catalog.versionQuery(tables: tables), tables.map { SQLValue.keyArray(groups[$0]!) }) { row in
            stored[tables[Int(row.int64(at: 0))], default: [:]][row.int64(at: 1)] = row.int64(at: 2)
        }
        let conflicts = expected.filter { id, version in
            stored[layout(for: id.entity).table]?[id.primaryKey ?? -1] != version
        }.map(\.key)
        guard !conflicts.isEmpty else { return }
        let rows = try rows(for: conflicts)
        throw StoreVersionConflict(conflicts: conflicts.map { ($0, rows[$0]) })
    }
}

/// Collects a fetch's rows as snapshots.
private struct RowSnapshotCollector<Store: SQLTableStore>: SQLRowVisitor {
    let store: Store
    let catalog: SQLTableCatalog
    var rows: [RowSnapshot] = []

    mutating func visit(_ row: some SQLRow) throws {
        rows.append(try store.decodeRow(row, catalog))
    }
}

/// Collects a fetch's `Z_PK, Z_ENT` rows as compact object IDs.
private struct ObjectIDCollector: SQLRowVisitor {
    var builder: ObjectIDListBuilder
    let catalog: SQLTableCatalog
    let fallback: NSEntityDescription

    mutating func visit(_ row: some SQLRow) throws {
        builder.append(catalog.entity(number: row.int64(at: 1), fallback: fallback), primaryKey: row.int64(at: 0))
    }
}
