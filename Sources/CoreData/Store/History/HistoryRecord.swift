/// One object's change as a store is about to record it in persistent history (an `ACHANGE`
/// row), the same for the SQLite and PostgreSQL stores.
struct HistoryRecord {
    let type: NSPersistentHistoryChangeType
    let objectID: NSManagedObjectID
    /// An update's changed property names.
    var properties: Set<String>? = nil
    /// A delete's preserved values, encoded.
    var tombstone: [UInt8]? = nil

    /// The `ACHANGE` columns after Z_ENT and Z_OPT: change type, entity, key, transaction,
    /// changed property names, tombstone.
    func columns(transaction: Int64) -> [SQLValue] {
        [.integer(Int64(type.rawValue)), .integer(Int64(objectID.entity.entityNumber)), .integer(objectID.primaryKey ?? 0), .integer(transaction),
         properties.map { .text($0.sorted().joined(separator: ",")) } ?? .null, tombstone.map { .blob($0) } ?? .null]
    }

    /// Command-line programs on Linux have no bundle identifier; the process name stands in.
    static let bundleID = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    static let processID = String(ProcessInfo.processInfo.processIdentifier)
}

extension HistoryTombstone {
    /// The tombstone of a row about to be deleted: the values of its attributes that
    /// preserve theirs, or nil when it has none (or is already gone).
    static func preserved(in row: RowSnapshot?) throws -> [UInt8]? {
        guard let row else { return nil }
        var values: [String: Any] = [:]
        for attribute in row.objectID.entity.attributesByName.values where attribute.preservesValueInHistoryOnDeletion {
            values[attribute.name] = row.values[attribute.name]
        }
        return try encode(values)
    }
}
