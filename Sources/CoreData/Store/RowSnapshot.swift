/// The stored state of one row: its attribute values and to-one destinations by property
/// ordinal, and its optimistic-locking version (Z_OPT).
///
/// To-many relationships are not part of a row; they are read on demand, which is what lets a
/// to-many relationship stay a fault until it is touched.
struct RowSnapshot {
    let objectID: NSManagedObjectID
    var version: Int64
    /// The values, laid out by the object's entity's property index: the index is not kept
    /// beside them, as a fetch holds one row per object it returns and every byte of a row
    /// counts a million times over in a large fetch.
    private var slots: ContiguousArray<StoredValue?>

    init(objectID: NSManagedObjectID, version: Int64, values: RowValues) {
        assert(values.index.properties.count == objectID.entity.propertyIndex.properties.count,
               "a row laid out for another entity than its object's")
        self.objectID = objectID
        self.version = version
        self.slots = values.slots
    }

    var values: RowValues {
        get { RowValues(index: objectID.entity.propertyIndex, slots: slots) }
        set { slots = newValue.slots }
        // Moves the array out and back, so that writing one value does not copy the others.
        _modify {
            var values = RowValues(index: objectID.entity.propertyIndex, slots: slots)
            slots = []
            defer { slots = values.slots }
            yield &values
        }
    }

    /// Lets go of the values, keeping the ID and version: what a fetched fault leaves behind
    /// when it takes its row (no look-up of the layout, which an empty row does not need).
    mutating func dropValues() {
        slots = []
    }

    /// A row from values by name in Foundation form (to-one destinations as
    /// `NSManagedObjectID`); names that are not properties of the entity are dropped.
    init(objectID: NSManagedObjectID, version: Int64, values named: [String: Any]) {
        var values = RowValues(entity: objectID.entity)
        for (name, value) in named { values[name] = value }
        self.init(objectID: objectID, version: version, values: values)
    }
}

/// A search a store answers, already resolved against the model.
struct StoreFetch {
    let entity: NSEntityDescription
    var includesSubentities = true
    var predicate: NSPredicate?
    var sortDescriptors: [NSSortDescriptor] = []
    /// 0 means no limit.
    var limit = 0
    var offset = 0
}

/// One save's worth of row changes, applied by a store in a single transaction.
struct StoreChanges {
    var inserted: [RowSnapshot] = []
    /// New row values with the version the saving context read; a different version in the store
    /// is a conflict.
    var updated: [(row: RowSnapshot, expectedVersion: Int64)] = []
    var deleted: [(objectID: NSManagedObjectID, expectedVersion: Int64)] = []
    /// The complete new membership of every to-many relationship that changed.
    var toMany: [ToManyChange] = []
    /// Who saved, for persistent history.
    var origin: TransactionOrigin?
    /// The names of the properties each updated row changed, for persistent history; a row
    /// without an entry changed all of them as far as history knows.
    var updatedProperties: [NSManagedObjectID: Set<String>] = [:]

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && toMany.isEmpty }
}

/// The members of one object's to-many relationship after a save, in order.
struct ToManyChange {
    let relationship: NSRelationshipDescription
    let source: NSManagedObjectID
    let members: [NSManagedObjectID]
}

/// Rows whose stored version no longer matches what the saving context read.
struct StoreVersionConflict: Error, @unchecked Sendable {
    /// Each conflicting object with its row as the store now has it (nil if deleted).
    let conflicts: [(objectID: NSManagedObjectID, storedRow: RowSnapshot?)]
}
