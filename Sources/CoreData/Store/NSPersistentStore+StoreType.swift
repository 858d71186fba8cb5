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
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        public static let sqlite = StoreType(rawValue: NSSQLiteStoreType)
        public static let inMemory = StoreType(rawValue: NSInMemoryStoreType)
        public static let binary = StoreType(rawValue: NSBinaryStoreType)
    }
}
