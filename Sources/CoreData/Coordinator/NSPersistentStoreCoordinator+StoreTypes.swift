import Logging

/// Store types beyond the built-in ones: `NSIncrementalStore` and `NSAtomicStore` subclasses,
/// registered by name.
extension NSPersistentStoreCoordinator {
    private static let logger = Logger(label: "CoreData")

    /// Makes `storeClass` the class of stores added with type `storeType`; nil removes the
    /// registration.
    ///
    /// For example:
    /// ```swift
    /// NSPersistentStoreCoordinator.registerStoreClass(NotesWebStore.self, type: NotesWebStore.type)
    /// try coordinator.addPersistentStore(ofType: NotesWebStore.type, configurationName: nil, at: url)
    /// ```
    ///
    /// The class must be a subclass of `NSIncrementalStore` or `NSAtomicStore`; any other class
    /// is refused with a logged error, and adding a store of that type then throws
    /// `NSPersistentStoreInvalidTypeError`.
    public class func registerStoreClass(_ storeClass: AnyClass?, type storeType: String) {
        guard let storeClass else {
            StoreTypeRegistry.shared.register(nil, type: storeType)
            return
        }
        guard let rowStoreClass = storeClass as? any RowStore.Type else {
            logger.error("registerStoreClass: \(storeClass) is not a subclass of NSIncrementalStore or NSAtomicStore; store type '\(storeType)' stays unregistered")
            return
        }
        StoreTypeRegistry.shared.register(rowStoreClass, type: storeType)
    }

    /// Every store type a coordinator can add, with its class.
    public class var registeredStoreTypes: [String: AnyClass] {
        StoreTypeRegistry.shared.registeredTypes.mapValues { $0 as AnyClass }
    }
}
