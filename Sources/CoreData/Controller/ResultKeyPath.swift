/// A key path a controller reads from every object it holds (a sort key, the section name):
/// split at its dots once, and, when it names a stored attribute of the request's entity, bound
/// to that attribute's ordinal so that reading it is an array access instead of a string look-up.
///
/// Inherited properties keep their ordinals in subentities (an entity's properties are its
/// parent's followed by its own), so one binding serves every object the request returns; the
/// attribute is compared by identity before the ordinal is trusted.
struct ResultKeyPath {
    let keyPath: String
    let keys: [String]
    /// The stored attribute the key path names, and its ordinal; nil (and 0) otherwise. Two
    /// fields rather than an optional tuple, which the optimiser copied through generic value
    /// witnesses on every read (BENCHMARKS.md, figures moved out of the code).
    private let boundAttribute: NSAttributeDescription?
    private let boundOrdinal: Int

    init(_ keyPath: String, entity: NSEntityDescription?) {
        self.keyPath = keyPath
        keys = keyPath.split(separator: ".").map(String.init)
        // Transient attributes are left to key-value coding: a subclass may compute them.
        if keys.count == 1, let index = entity?.propertyIndex, let ordinal = index.ordinals[keyPath],
           let attribute = index.properties[ordinal] as? NSAttributeDescription, !attribute.isTransient {
            boundAttribute = attribute
            boundOrdinal = ordinal
        } else {
            boundAttribute = nil
            boundOrdinal = 0
        }
    }

    /// The row a fault's fetch left for it in its context, laid out as the object is; nil for an
    /// object that is not a fault or has no such row. Callers that read several key paths of
    /// one object look it up once and pass it to `queryValue(of:readAhead:)`.
    static func readAheadRow(of object: NSManagedObject) -> RowSnapshot? {
        guard let row = object.readAheadRow, row.values.index === object.propertyIndex else { return nil }
        return row
    }

    /// The value at this key path of `object` as a query value; a fault is read from `row`, its
    /// read-ahead row (`readAheadRow(of:)`), if it has one, rather than fired.
    func queryValue(of object: NSManagedObject, readAhead row: RowSnapshot?) -> ConstantValue {
        if let attribute = boundAttribute {
            // A read-ahead row is laid out as the object is (`readAheadRow(of:)`).
            // Read through the optional rather than bound to a local: binding copied the row,
            // three counted references, for every key of every object.
            if row != nil {
                if row!.values.index.property(at: boundOrdinal) === attribute {
                    return ConstantValue(stored: row!.values[ordinal: boundOrdinal], for: attribute)
                }
            } else {
                object.fireFaultIfNeeded()
                let values = object.values
                if values.index.property(at: boundOrdinal) === attribute {
                    switch values[ordinal: boundOrdinal] {
                    case .stored(let stored)?: return ConstantValue(stored: stored, for: attribute)
                    case nil: return .null
                    default: break
                    }
                }
            }
        }
        return ConstantValue(any: object.valueWithoutFiring(alongKeys: keys[...]))
    }
}
