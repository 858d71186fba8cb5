/// How rows of one entity are read from its table: which result column holds which property
/// ordinal, worked out once per entity so that reading a row costs no property look-ups,
/// casts or boxing.
///
/// A class, shared and never copied: the store picks the decoder of every row it reads, and
/// copying a struct of this size retained each of its references per row.
final class SQLRowDecoder {
    private enum Column {
        /// The attribute is unmanaged: `entity`, which holds its properties, keeps it alive, and
        /// a counted reference would be retained and released for every column of every row,
        /// on a count every thread decoding this entity's rows shares.
        case attribute(index: Int32, ordinal: Int, Unmanaged<NSAttributeDescription>)
        /// `entityIndex`: the column holding the destination row's Z_ENT, when the destination
        /// has subentities (`SQLTableLayout.destinationEntityColumns`).
        case toOne(index: Int32, ordinal: Int, destination: NSEntityDescription, entityIndex: Int32?)
        /// One element of a composite attribute, gathered into the attribute's dictionary.
        case element(index: Int32, ordinal: Int, path: [String], NSAttributeDescription)
    }

    let entity: NSEntityDescription
    /// The table the entity's rows are in.
    let layout: SQLTableLayout
    private let columns: [Column]

    /// Columns of sibling entities share the table; only `entity`'s own are read. Column
    /// `index` of a row is the layout's column `index - 3` (after Z_PK, Z_ENT, Z_OPT).
    init(entity: NSEntityDescription, layout: SQLTableLayout) {
        self.entity = entity
        self.layout = layout
        let ordinals = entity.propertyIndex.ordinals
        let properties = entity.propertiesByName
        columns = layout.columns.enumerated().compactMap { offset, column in
            let index = Int32(offset + 3)
            guard let ordinal = ordinals[column.property.name] else { return nil }
            if !column.elementPath.isEmpty, let element = column.storedAttribute {
                return .element(index: index, ordinal: ordinal, path: column.elementPath, element)
            }
            switch properties[column.property.name] {
            case let attribute as NSAttributeDescription:
                return .attribute(index: index, ordinal: ordinal, Unmanaged.passUnretained(attribute))
            case let relationship as NSRelationshipDescription:
                return relationship.destinationEntity.map {
                    .toOne(index: index, ordinal: ordinal, destination: $0, entityIndex: layout.destinationEntityColumns[offset])
                }
            default:
                return nil
            }
        }
    }

    /// The row's values by ordinal; `entity` names the entity of a Z_ENT number (the declared
    /// destination when the model has no such number).
    func values(of row: some SQLRow, entity: (Int64, NSEntityDescription) -> NSEntityDescription,
                objectID: (NSEntityDescription, Int64) -> NSManagedObjectID) throws -> RowValues {
        var values = RowValues(entity: self.entity)
        for column in columns {
            switch column {
            case .attribute(let index, let ordinal, let attribute):
                values[ordinal: ordinal] = try attribute._withUnsafeGuaranteedRef { try SQLValueCoding.decode(row, column: index, as: $0) }
            case .toOne(let index, let ordinal, let destination, let entityIndex):
                guard !row.isNull(at: index) else { continue }
                let concrete = entityIndex.map { entity(row.int64(at: $0), destination) } ?? destination
                values[ordinal: ordinal] = .objectID(objectID(concrete, row.int64(at: index)))
            case .element(let index, let ordinal, let path, let element):
                guard let value = try SQLValueCoding.decode(row, column: index, as: element) else { continue }
                var elements: [String: Any] = [:]
                if case .other(let decoded as [String: Any])? = values[ordinal: ordinal] { elements = decoded }
                NSCompositeAttributeDescription.set(value.foundationValue(for: element), at: path[...], in: &elements)
                values[ordinal: ordinal] = .other(elements)
            }
        }
        return values
    }
}
