/// The object IDs of a fetch's results, held compactly: a store's list keeps eight bytes of
/// primary key a row (and two bytes of entity when the result mixes sub-entities), and makes
/// each `NSManagedObjectID` only when it is asked for, as Apple's batched results keep one
/// tagged ID a row.
struct ObjectIDList: RandomAccessCollection {
    private enum Storage {
        case primaryKeys(store: NSPersistentStore, entities: [NSEntityDescription], keys: [Int64], entityIndexes: [UInt16])
        case objectIDs([NSManagedObjectID])
    }

    private let storage: Storage

    /// A list of IDs already made (unsaved objects, or a parent context's view).
    init(_ ids: [NSManagedObjectID]) {
        storage = .objectIDs(ids)
    }

    /// A list of rows of `store`: `entityIndexes` picks from `entities` per row and is empty
    /// when every row is of `entities[0]`.
    init(store: NSPersistentStore, entities: [NSEntityDescription], keys: [Int64], entityIndexes: [UInt16]) {
        precondition(!entities.isEmpty && (entityIndexes.isEmpty || entityIndexes.count == keys.count))
        storage = .primaryKeys(store: store, entities: entities, keys: keys, entityIndexes: entityIndexes)
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .primaryKeys(_, _, let keys, _): keys.count
        case .objectIDs(let ids): ids.count
        }
    }

    subscript(position: Int) -> NSManagedObjectID {
        switch storage {
        case .primaryKeys(let store, _, let keys, _): store.objectID(for: entity(at: position), primaryKey: keys[position])
        case .objectIDs(let ids): ids[position]
        }
    }

    /// The ID at `position` as a name, without making the ID.
    func name(at position: Int) -> ObjectName {
        switch storage {
        case .primaryKeys(let store, _, let keys, _): ObjectName(key: keys[position], entity: entity(at: position), store: store)
        case .objectIDs(let ids): ids[position].name
        }
    }

    /// The entity of the ID at `position`, without making the ID.
    func entity(at position: Int) -> NSEntityDescription {
        switch storage {
        case .primaryKeys(_, let entities, _, let entityIndexes):
            entityIndexes.isEmpty ? entities[0] : entities[Int(entityIndexes[position])]
        case .objectIDs(let ids):
            ids[position].entity
        }
    }

    /// The IDs in `range` as a list of their own, as compact as this one.
    func extracting(_ range: Range<Int>) -> ObjectIDList {
        switch storage {
        case .primaryKeys(let store, let entities, let keys, let entityIndexes):
            ObjectIDList(store: store, entities: entities, keys: Array(keys[range]),
                         entityIndexes: entityIndexes.isEmpty ? [] : Array(entityIndexes[range]))
        case .objectIDs(let ids):
            ObjectIDList(Array(ids[range]))
        }
    }
}

/// Collects a store's rows into an `ObjectIDList`, numbering entities as they first appear.
struct ObjectIDListBuilder {
    private let store: NSPersistentStore
    private var entities: [NSEntityDescription] = []
    private var keys: [Int64] = []
    private var entityIndexes: [UInt16] = []

    init(store: NSPersistentStore) {
        self.store = store
    }

    mutating func append(_ entity: NSEntityDescription, primaryKey: Int64) {
        keys.append(primaryKey)
        if entities.isEmpty { entities.append(entity) }
        if entityIndexes.isEmpty, entity === entities[0] { return }
        // From the first row of another entity on, every row records its entity.
        if entityIndexes.isEmpty { entityIndexes = Array(repeating: 0, count: keys.count - 1) }
        if let index = entities.firstIndex(where: { $0 === entity }) {
            entityIndexes.append(UInt16(index))
        } else {
            entityIndexes.append(UInt16(entities.count))
            entities.append(entity)
        }
    }

    func build() -> ObjectIDList {
        guard !entities.isEmpty else { return ObjectIDList([]) }
        return ObjectIDList(store: store, entities: entities, keys: keys, entityIndexes: entityIndexes)
    }
}
