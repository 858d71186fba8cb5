/// The public store protocol: subclass it to keep objects anywhere (a web service, another
/// database) and register the subclass with `NSPersistentStoreCoordinator.registerStoreClass(_:type:)`.
/// Contexts, fetches, saves and fetched results controllers then work on it as on the built-in
/// stores.
///
/// For example:
/// ```swift
/// final class NotesStore: NSIncrementalStore {
///     override func loadMetadata() throws {
///         metadata = [NSStoreTypeKey: "Notes", NSStoreUUIDKey: "8A1C…"]
///     }
///     override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any { … }
///     override func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode { … }
///     override func newValue(forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID,
///                            with context: NSManagedObjectContext?) throws -> Any { … }
///     override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] { … }
/// }
/// ```
///
/// `execute(_:with:)` receives an `NSFetchRequest` (answer `[NSManagedObjectID]` for
/// `.managedObjectIDResultType`, `[NSNumber]` with one count for `.countResultType`,
/// `[NSDictionary]` for `.dictionaryResultType`, and managed objects from the context for
/// `.managedObjectResultType`), an `NSSaveChangesRequest` (answer an empty array), or a batch
/// request (answer its `NSPersistentStoreResult`). The coordinator asks for IDs and counts,
/// then reads each object's values through `newValuesForObject(with:with:)` when its fault
/// fires.
open class NSIncrementalStore: NSPersistentStore, @unchecked Sendable {
    let references = ReferenceObjectTable()

    /// Makes the store; as a subclass, write `required init` to override it.
    public required init(persistentStoreCoordinator root: NSPersistentStoreCoordinator?, configurationName name: String?,
                         at url: URL, options: [AnyHashable: Any]? = nil) {
        super.init(persistentStoreCoordinator: root, configurationName: name, at: url, options: options)
        observesRegistrations = true
    }

    /// A new identifier for a store created at `storeURL`: a UUID string.
    open class func identifierForNewStore(at storeURL: URL) -> Any {
        UUID().uuidString
    }

    /// Answers a fetch, save or batch request (see the class overview for what to return).
    open func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        throw Self.mustOverride("execute(_:with:)")
    }

    /// The stored values of one object; throw `NSManagedObjectReferentialIntegrityError` when
    /// it no longer exists.
    open func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        throw Self.mustOverride("newValuesForObject(with:with:)")
    }

    /// The destination of a relationship: an `NSManagedObjectID` (or `NSNull`) for a to-one, a
    /// collection of `NSManagedObjectID`s for a to-many (an array for an ordered relationship).
    open func newValue(forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID,
                       with context: NSManagedObjectContext?) throws -> Any {
        throw Self.mustOverride("newValue(forRelationship:forObjectWith:with:)")
    }

    /// Permanent IDs for newly inserted objects, in the same order; make them with
    /// `newObjectID(for:referenceObject:)`.
    open func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        throw Self.mustOverride("obtainPermanentIDs(for:)")
    }

    /// The ID of the object `data` names in this store (a number or string the store uses as
    /// the object's key). Not for overriding.
    public final func newObjectID(for entity: NSEntityDescription, referenceObject data: Any) -> NSManagedObjectID {
        references.objectID(for: entity, reference: data, in: self)
    }

    /// The reference object `objectID` was made from. Not for overriding.
    public final func referenceObject(for objectID: NSManagedObjectID) -> Any {
        references.reference(for: objectID, in: self)
    }

    private static func mustOverride(_ method: String) -> NSError {
        CoreDataError.make(NSPersistentStoreOperationError, "\(Self.self) must override NSIncrementalStore.\(method)")
    }
}
