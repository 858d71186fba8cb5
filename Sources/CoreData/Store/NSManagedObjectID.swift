import Synchronization

/// A stable, thread-safe identity for a managed object: a temporary identifier until the object's
/// first save, then the store's primary key.
///
/// IDs are what crosses queues: pass an ID to another context and ask it for the object.
public final class NSManagedObjectID: NSObject, NSCopying, @unchecked Sendable {
    // Immutable after creation, so sharing across threads is safe; the entity description is only
    // read, never mutated, once its model is in use.
    /// The entity of the object the ID names.
    public let entity: NSEntityDescription
    /// The store's primary key (Z_PK) when `store` is set; otherwise a number unique within this
    /// process (every new object gets one when first asked, so it is a counter rather than a
    /// UUID). The ID keeps just the entity, the key and the store (40 bytes, a
    /// 48-byte block); a batched fetch's faults make theirs only when asked (`ObjectStorage`).
    private let key: Int64
    /// Strong, so an ID keeps its store's identifier for equality and URIs after the store is
    /// removed; a removed store holds no files or connections. Nil exactly while temporary.
    private let store: NSPersistentStore?
    private static let temporaryCounter = Atomic<UInt64>(0)
    /// Distinguishes this process's temporary IDs in URIs.
    private static let processToken = UUID().uuidString

    init(entity: NSEntityDescription, primaryKey: Int64, store: NSPersistentStore) {
        self.entity = entity
        self.key = primaryKey
        self.store = store
    }

    init(temporaryFor entity: NSEntityDescription) {
        self.entity = entity
        self.key = Int64(bitPattern: Self.temporaryCounter.add(1, ordering: .relaxed).newValue)
        self.store = nil
    }

    /// The store's primary key (Z_PK); nil while the ID is temporary.
    var primaryKey: Int64? { store == nil ? nil : key }

    private var temporaryIdentifier: UInt64? { store == nil ? UInt64(bitPattern: key) : nil }

    private var storeIdentifier: String? { store?.identifier }

    /// True until the object's first save (or `obtainPermanentIDs(for:)`) gives it a primary key.
    public var isTemporaryID: Bool { store == nil }

    /// The store that holds the object; nil while the ID is temporary.
    public var persistentStore: NSPersistentStore? { store }

    /// `x-coredata://<store UUID>/<Entity>/p<pk>`, or `x-coredata:///<Entity>/t<UUID>` while temporary.
    public func uriRepresentation() -> URL {
        // Model entity names are identifiers, but one built in code may hold anything. An ASCII
        // letters-and-digits name is its own encoding: skipping Foundation's percent-encoding
        // for it halves the cost of a URI (SwiftData makes one per model at every save).
        let name = Self.uriPathComponent(entity.name ?? "")
        if let primaryKey, let storeIdentifier {
            return URL(string: "x-coredata://\(storeIdentifier)/\(name)/p\(primaryKey)")!
        }
        return URL(string: "x-coredata:///\(name)/t\(Self.processToken)-\(temporaryIdentifier ?? 0)")!
    }

    /// The number that ends the ID's URI: its primary key, or its temporary number. Equal IDs
    /// have equal ones, and it is what `hash` hashes.
    package var uriKey: Int64 { key }

    /// The `uriKey` of the ID that `uri` represents, read from the URI alone; nil for a URI that
    /// `uriRepresentation()` did not make. A holder of a URI, such as a decoded SwiftData
    /// identifier, hashes with it as a holder of the ID does, without making the ID's URI.
    package static func uriKey(of uri: URL) -> Int64? {
        let last = uri.lastPathComponent
        switch last.first {
        case "p": return Int64(last.dropFirst())
        case "t": return last.split(separator: "-").last.flatMap { UInt64($0) }.map { Int64(bitPattern: $0) }
        default: return nil
        }
    }

    /// `name` percent-encoded outside the alphanumerics, as a URI's entity component.
    private static func uriPathComponent(_ name: String) -> String {
        let isPlain = name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        return isPlain ? name : name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    /// The ID's URI, for logs.
    public override var description: String { "<NSManagedObjectID \(uriRepresentation().absoluteString)>" }

    /// True for an ID of the same object: same key, store and root entity.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let object, type(of: object) == NSManagedObjectID.self else { return false }
        // The cast is read off the existential: an `Any` holding a class instance keeps the
        // reference in its first word (Swift's stable existential layout), and the exact type
        // was checked above; `as?` runs the runtime's general cast, several hundred
        // instructions. Hot dictionaries avoid this method altogether (`ObjectIDMap`).
        let other = withUnsafePointer(to: object) { $0.withMemoryRebound(to: NSManagedObjectID.self, capacity: 1) { $0.pointee } }
        return identifies(sameObjectAs: other)
    }

    /// Equality without boxing (see `ObjectName`).
    func identifies(sameObjectAs other: NSManagedObjectID) -> Bool {
        self === other || name == other.name
    }

    /// The ID's key, entity and store, for comparing with objects that have no ID made.
    var name: ObjectName { ObjectName(key: key, entity: entity, store: store) }

    /// The key alone: equal IDs have equal keys, and hashing the entity's name too would cost a
    /// string hash on every dictionary look-up. Rows of different entities sharing a key
    /// number only share a bucket.
    public override var hash: Int { key.hashValue }

    /// The ID itself: IDs are immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

extension NSManagedObjectID: NSFetchRequestResult {}

extension NSManagedObjectID: Comparable {
    /// Orders permanent IDs by entity then primary key: the order rows have in their table, used
    /// to break ties between equal sort keys the same way in SQL and in memory.
    public static func < (lhs: NSManagedObjectID, rhs: NSManagedObjectID) -> Bool {
        switch (lhs.primaryKey, rhs.primaryKey) {
        case let (left?, right?):
            return left != right ? left < right : (lhs.entity.name ?? "") < (rhs.entity.name ?? "")
        case (nil, _?): return false
        case (_?, nil): return true
        case (nil, nil): return (lhs.temporaryIdentifier ?? 0) < (rhs.temporaryIdentifier ?? 0)
        }
    }
}
