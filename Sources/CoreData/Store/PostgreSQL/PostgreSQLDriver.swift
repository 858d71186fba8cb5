/// Where the `CoreDataPostgreSQL` product installs its connector, making the
/// `NSPostgreSQLStoreType` store type available to every coordinator.
package enum PostgreSQLDriver {
    private static let installed = Locked<(any PostgreSQLConnector)?>(nil)

    static var connector: (any PostgreSQLConnector)? { installed.withLock { $0 } }

    /// Registers the PostgreSQL store under `type`, connecting through `connector`.
    package static func install(_ connector: any PostgreSQLConnector, type: String) {
        installed.withLock { $0 = connector }
        StoreTypeRegistry.shared.register(PostgreSQLStore.self, type: type)
    }
}
