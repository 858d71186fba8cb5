@_exported import CoreData

/// The PostgreSQL store's type name, beside `NSSQLiteStoreType`.
///
/// Reading it installs the store type (the driver on postgres-nio) for every coordinator, so a
/// description whose `type` is `NSPostgreSQLStoreType` and whose URL is
/// `postgres://user:password@host:port/database?schema=name` loads with `loadPersistentStores`
/// and no other set-up call. Swift initialises a global constant on first use, which is what
/// makes that work without a module initialiser.
public let NSPostgreSQLStoreType: String = {
    PostgreSQLDriver.install(PostgresNIOConnector(), type: "PostgreSQL")
    return "PostgreSQL"
}()

extension NSPersistentStore.StoreType {
    /// The PostgreSQL store (`NSPostgreSQLStoreType`).
    public static var postgreSQL: NSPersistentStore.StoreType { NSPersistentStore.StoreType(rawValue: NSPostgreSQLStoreType) }
}
