@testable import CoreData
import Foundation

/// A store written the way an app writes one: a subclass of `NSIncrementalStore` keeping rows in
/// dictionaries (as a wrapper of a web service would keep them in its responses), registered
/// under its own type. It uses only the public incremental-store API, except that it borrows
/// the library's in-memory sort (`SortComparison`): Linux Foundation cannot apply string-keyed
/// sort descriptors, and a hand-written comparator would not collate strings as the tests
/// expect.
///
/// Stores opened on the same URL share one database, like clients of one server; a store on
/// `/dev/null` (what the coordinator passes when no URL is given) gets a database of its own.
class DictionaryStore: NSIncrementalStore, @unchecked Sendable {
    static let type = "DictionaryStore"

    /// Registers the class once per process.
    static let registered: Void = NSPersistentStoreCoordinator.registerStoreClass(DictionaryStore.self, type: type)

    /// One row: attributes by name, to-one relationships as the destination's key, to-many as
    /// member keys in order.
    struct Row {
        var entityName: String
        var version: UInt64
        var attributes: [String: Any] = [:]
        var toOne: [String: Int] = [:]
        var toMany: [String: [Int]] = [:]
    }

    final class Database: @unchecked Sendable {
        let uuid = UUID().uuidString
        let lock = NSLock()
        var rows: [Int: Row] = [:]
        var lastKey = 0
        /// Every request `execute(_:with:)` received, by kind, for tests to inspect.
        var requestCounts: [String: Int] = [:]

        func withLock<T>(_ body: (Database) throws -> T) rethrows -> T {
            lock.lock()
            defer { lock.unlock() }
            return try body(self)
        }
    }

    private static let databases = Locked<[String: Database]>([:])
    private(set) lazy var database: Database = {
        guard let url, url.path != "/dev/null" else { return Database() }
        return Self.databases.withLock { databases in
            if let shared = databases[url.absoluteString] { return shared }
            let database = Database()
            databases[url.absoluteString] = database
            return database
        }
    }()

    private lazy var scratch: NSManagedObjectContext = {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = persistentStoreCoordinator
        return context
    }()

    override func loadMetadata() throws {
        metadata = [NSStoreTypeKey: Self.type, NSStoreUUIDKey: database.uuid]
    }

    override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        database.withLock { $0.requestCounts["\(Swift.type(of: request))", default: 0] += 1 }
        switch request {
        case let fetch as NSFetchRequest<NSFetchRequestResult>:
            guard let context else { throw Self.unsupported("a fetch without a context") }
            return try answer(fetch, in: context)
        case let save as NSSaveChangesRequest:
            try apply(save)
            return [Any]()
        default:
            throw Self.unsupported("\(Swift.type(of: request))")
        }
    }

    override func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        let key = try Self.key(referenceObject(for: objectID))
        guard let row = database.withLock({ $0.rows[key] }) else {
            throw NSError(domain: NSCocoaErrorDomain, code: NSManagedObjectReferentialIntegrityError)
        }
        var values = row.attributes
        for (name, destination) in row.toOne {
            guard let relationship = objectID.entity.relationshipsByName[name] else { continue }
            values[name] = try id(of: destination, fallback: relationship.destinationEntity!)
        }
        return NSIncrementalStoreNode(objectID: objectID, withValues: values, version: row.version)
    }

    override func newValue(forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID,
                           with context: NSManagedObjectContext?) throws -> Any {
        let key = try Self.key(referenceObject(for: objectID))
        let members = database.withLock { $0.rows[key]?.toMany[relationship.name] } ?? []
        return try members.map { try id(of: $0, fallback: relationship.destinationEntity!) }
    }

    override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        database.withLock { database in
            array.map { object in
                database.lastKey += 1
                return newObjectID(for: object.entity, referenceObject: database.lastKey)
            }
        }
    }

    // MARK: Answering

    private func answer(_ request: NSFetchRequest<NSFetchRequestResult>, in context: NSManagedObjectContext) throws -> Any {
        guard let entity = request.entity else { throw Self.unsupported("a fetch without an entity") }
        let candidates: [(key: Int, entityName: String)] = database.withLock { database in
            database.rows.map { ($0.key, $0.value.entityName) }.sorted { $0.key < $1.key }
        }
        // Judged on objects of a context of the store's own that holds no changes, so every
        // object is judged by what the store holds; the requesting context folds its own
        // unsaved changes in, as it does for any store.
        let ids: [NSManagedObjectID] = try scratch.performAndWait {
            scratch.reset()
            var objects: [NSManagedObject] = []
            for candidate in candidates {
                guard let candidateEntity = entity.managedObjectModel.entitiesByName[candidate.entityName],
                      request.includesSubentities ? candidateEntity.isKindOf(entity: entity) : candidateEntity === entity else { continue }
                let object = scratch.object(with: newObjectID(for: candidateEntity, referenceObject: candidate.key))
                if request.predicate?.evaluate(with: object) ?? true { objects.append(object) }
            }
            objects = try SortComparison(request.sortDescriptors ?? []).sorted(objects)
            return objects.dropFirst(request.fetchOffset).prefix(request.fetchLimit > 0 ? request.fetchLimit : Int.max).map(\.objectID)
        }
        switch request.resultType {
        case .countResultType: return [NSNumber(value: ids.count)]
        case .managedObjectIDResultType: return ids
        case .managedObjectResultType: return ids.map { context.object(with: $0) }
        default: throw Self.unsupported("result type \(request.resultType)")
        }
    }

    private func apply(_ save: NSSaveChangesRequest) throws {
        var written: [(Int, Row?)] = []
        for object in (save.insertedObjects ?? []).union(save.updatedObjects ?? []) {
            var row = Row(entityName: object.entity.name!, version: 0)
            for (name, property) in object.entity.propertiesByName where !property.isTransient {
                let value = object.value(forKey: name)
                switch property {
                case let relationship as NSRelationshipDescription where relationship.isToMany:
                    let members = (value as? NSOrderedSet)?.array ?? (value as? NSSet)?.allObjects ?? []
                    row.toMany[name] = try members.map { try Self.key(referenceObject(for: ($0 as! NSManagedObject).objectID)) }
                case is NSRelationshipDescription:
                    if let destination = value as? NSManagedObject { row.toOne[name] = try Self.key(referenceObject(for: destination.objectID)) }
                default:
                    if let value { row.attributes[name] = value }
                }
            }
            written.append((try Self.key(referenceObject(for: object.objectID)), row))
        }
        for object in save.deletedObjects ?? [] { written.append((try Self.key(referenceObject(for: object.objectID)), nil)) }
        database.withLock { database in
            for (key, row) in written {
                guard var row else {
                    database.rows[key] = nil
                    continue
                }
                row.version = (database.rows[key]?.version ?? 0) + 1
                database.rows[key] = row
            }
        }
    }

    private func id(of key: Int, fallback entity: NSEntityDescription) throws -> NSManagedObjectID {
        let name = database.withLock { $0.rows[key]?.entityName }
        return newObjectID(for: name.flatMap { entity.managedObjectModel.entitiesByName[$0] } ?? entity, referenceObject: key)
    }

    private static func key(_ reference: Any) throws -> Int {
        guard let key = reference as? Int else { throw unsupported("reference object \(reference)") }
        return key
    }

    private static func unsupported(_ what: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
                userInfo: [NSLocalizedDescriptionKey: "DictionaryStore does not handle \(what)"])
    }
}
