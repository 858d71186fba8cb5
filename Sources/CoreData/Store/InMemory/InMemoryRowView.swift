/// A stored row seen as an object a predicate can walk: attributes by name, to-one
/// relationships as further views, to-many relationships as arrays of views.
final class InMemoryRowView: KeyValueReadable, EntityDescribing, ObjectIDProviding {
    let row: RowSnapshot
    private unowned let table: InMemoryTable

    init(row: RowSnapshot, table: InMemoryTable) {
        self.row = row
        self.table = table
    }

    var describedEntity: NSEntityDescription { row.objectID.entity }
    var objectID: NSManagedObjectID { row.objectID }

    func readValue(forKey key: String) -> Any? {
        guard let relationship = row.objectID.entity.relationshipsByName[key] else { return row.values[key] }
        if relationship.isToMany {
            return table.relatedObjectIDs(relationship, of: row.objectID).compactMap { table.row(for: $0) }.map { InMemoryRowView(row: $0, table: table) }
        }
        guard let target = row.values[key] as? NSManagedObjectID, let targetRow = table.row(for: target) else { return nil }
        return InMemoryRowView(row: targetRow, table: table)
    }
}
