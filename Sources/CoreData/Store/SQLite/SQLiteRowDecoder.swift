/// How rows of one entity are read from its table: which result columns hold its attributes and
/// to-one relationships, worked out once per entity so that reading a row costs no property
/// look-ups or casts.
struct SQLiteRowDecoder {
    private enum Column {
        case attribute(index: Int32, NSAttributeDescription)
        case toOne(index: Int32, name: String, destination: NSEntityDescription)
    }

    let entity: NSEntityDescription
    private let columns: [Column]

    /// Columns of sibling entities share the table; only `entity`'s own are read. Column
    /// `index` of a row is the layout's column `index - 3` (after Z_PK, Z_ENT, Z_OPT).
    init(entity: NSEntityDescription, layout: SQLiteTableLayout) {
        self.entity = entity
        let properties = entity.propertiesByName
        columns = layout.columns.enumerated().compactMap { offset, column in
            let index = Int32(offset + 3)
            switch properties[column.property.name] {
            case let attribute as NSAttributeDescription:
                return .attribute(index: index, attribute)
            case let relationship as NSRelationshipDescription:
                return relationship.destinationEntity.map { .toOne(index: index, name: relationship.name, destination: $0) }
            default:
                return nil
            }
        }
    }

    /// The row's values by property name; `destinationEntity` finds the concrete entity of a
    /// to-one destination that has subentities.
    func values(of row: SQLiteRow, destinationEntity: (NSEntityDescription, Int64) throws -> NSEntityDescription,
                objectID: (NSEntityDescription, Int64) -> NSManagedObjectID) throws -> [String: Any] {
        var values: [String: Any] = [:]
        values.reserveCapacity(columns.count)
        for column in columns {
            switch column {
            case .attribute(let index, let attribute):
                if let value = try SQLiteValueCoding.decode(row, column: index, as: attribute) { values[attribute.name] = value }
            case .toOne(let index, let name, let destination):
                guard !row.isNull(at: index) else { continue }
                let key = row.int64(at: index)
                values[name] = objectID(try destinationEntity(destination, key), key)
            }
        }
        return values
    }
}
