/// The typed form of a store's type name, as recent Apple releases spell it.
extension NSPersistentStore {
    /// A store type: its raw value is the type name (`NSSQLiteStoreType`, …) the string-based
    /// API takes, so a store class registered under a name works here too.
    ///
    /// For example:
    /// ```swift
    /// try coordinator.addPersistentStore(type: .sqlite, at: url)
    /// ```
    public struct StoreType: RawRepresentable, Hashable, Sendable {
        /// The type name, as `addPersistentStore(ofType:…)` and `registerStoreClass(_:type:)` spell it.
        public let rawValue: String

        /// Wraps any registered type name, including one of your own store classes.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The SQLite store: Apple's file layout, WAL journal, rows read on demand.
        public static let sqlite = StoreType(rawValue: NSSQLiteStoreType)
        /// A store that keeps its rows in memory and nothing after the coordinator goes.
        public static let inMemory = StoreType(rawValue: NSInMemoryStoreType)
        /// The binary store: the whole graph in one file, loaded at once and rewritten at each save.
        public static let binary = StoreType(rawValue: NSBinaryStoreType)
    }
}
