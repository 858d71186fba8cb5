/// The store classes coordinators make stores from, by type name: the built-in stores and
/// every class registered with `NSPersistentStoreCoordinator.registerStoreClass(_:type:)`.
final class StoreTypeRegistry: Sendable {
    static let shared = StoreTypeRegistry()

    private let classes = Locked<[String: any RowStore.Type]>([
        NSSQLiteStoreType: SQLiteStore.self,
        NSInMemoryStoreType: InMemoryStore.self,
        NSBinaryStoreType: BinaryStore.self,
    ])

    func storeClass(for type: String) -> (any RowStore.Type)? {
        classes.withLock { $0[type] }
    }

    func register(_ storeClass: (any RowStore.Type)?, type: String) {
        classes.withLock { $0[type] = storeClass }
    }

    var registeredTypes: [String: any RowStore.Type] {
        classes.withLock { $0 }
    }
}
