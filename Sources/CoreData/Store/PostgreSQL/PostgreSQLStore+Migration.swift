/// Lightweight migration when a store opens with a newer model, as on SQLite (`SQLMigration`),
/// inside the transaction that opens the schema: it holds the schema's lock, so of two
/// coordinators opening at once one migrates and the other finds the schema migrated, and
/// PostgreSQL's transactional DDL leaves the old schema whole when a step fails.
extension PostgreSQLStore {
    /// Whether the options ask to migrate a schema written with another model
    /// (`NSPersistentStoreDescription` sets this by default, as on Apple platforms).
    var migratesAutomatically: Bool {
        StoreOptions.flag(NSMigratePersistentStoresAutomaticallyOption, in: options ?? [:])
    }

    /// Migrates the schema `session` is in, written with the model `metadata` records, to
    /// `model`, inside the caller's transaction. Throws 134130 when the source model cannot be
    /// found, 134140 when no mapping can be found or inferred (or the mapping computes values,
    /// which only `NSMigrationManager` can run), and 134110 when the migration itself fails.
    func migrate(_ session: PostgreSQLSession, metadata: [String: Any], to model: NSManagedObjectModel) throws {
        let store = "the store in schema \(endpoint.schema)"
        let userInfo: [String: Any] = [NSURLErrorKey: url as Any]
        let place = url ?? URL(fileURLWithPath: "/")
        let sourceModel = try LightweightMigration.sourceModel(of: store, metadata: metadata, destination: model,
                                                               archived: { try? SQLModelCache.model(in: session, place: place) }, userInfo: userInfo)
        let mapping = try LightweightMigration.mapping(of: store, from: sourceModel, to: model,
                                                       infers: StoreOptions.flag(NSInferMappingModelAutomaticallyOption, in: options ?? [:]),
                                                       options: options, userInfo: userInfo)
        let migration = try SQLMigration(source: sourceModel, destination: model, mapping: mapping)
        do {
            try mappingFailures {
                try migration.run(on: session, metadata: metadata)
                // The migration dropped the old tables' unique indexes with them (or, for an
                // altered table, as indexes it does not know); rows that break a new
                // constraint fail it here (133021 underneath).
                for statement in PostgreSQLSchema.uniqueIndexStatements(model: model) { try session.write(statement) }
            }
        } catch {
            throw CoreDataError.make(NSMigrationError, "The migration of \(store) failed; the store is unchanged",
                                     userInfo.merging([NSUnderlyingErrorKey: error]) { $1 })
        }
    }
}
