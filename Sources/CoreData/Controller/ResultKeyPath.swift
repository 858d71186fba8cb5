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
    private let binding: (ordinal: Int, attribute: NSAttributeDescription)?

    init(_ keyPath: String, entity: NSEntityDescription?) {
        self.keyPath = keyPath
        keys = keyPath.split(separator: ".").map(String.init)
        // Transient attributes are left to key-value coding: a subclass may compute them.
        if keys.count == 1, let index = entity?.propertyIndex, let ordinal = index.ordinals[keyPath],
           let attribute = index.properties[ordinal] as? NSAttributeDescription, !attribute.isTransient {
            binding = (ordinal, attribute)
        } else {
            binding = nil
        }
    }

    /// The value at this key path of `object` as a query value, without firing a fault whose
    /// row its fetch left in the context.
    func queryValue(of object: NSManagedObject) -> ConstantValue {
        if let (ordinal, attribute) = binding, ordinal < object.values.index.properties.count,
           object.values.index.properties[ordinal] === attribute {
            if object.faultFlag, let row = object.managedObjectContext?.rowCache[object.objectID], row.values.index === object.values.index {
                return ConstantValue(stored: row.values[ordinal: ordinal], for: attribute)
            }
            object.fireFaultIfNeeded()
            switch object.values[ordinal: ordinal] {
            case .stored(let stored)?: return ConstantValue(stored: stored, for: attribute)
            case nil: return .null
            default: break
            }
        }
        return ConstantValue(any: object.valueWithoutFiring(alongKeys: keys[...]))
    }
}
