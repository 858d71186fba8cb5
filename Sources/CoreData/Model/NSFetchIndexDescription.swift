/// How an index element orders its property's values: a B-tree (`binary`) or an R-tree.
public enum NSFetchIndexElementType: UInt, Sendable {
    case binary = 0
    /// Apple's SQLite store builds an R-tree for two-dimensional range queries; ours builds a
    /// B-tree on the column instead (same results, see the README's deliberate differences).
    case rTree = 1
}

/// One property of a fetch index, in ascending or descending order.
///
/// For example:
/// ```swift
/// let element = NSFetchIndexElementDescription(property: nameAttribute, collationType: .binary)
/// ```
open class NSFetchIndexElementDescription: NSObject, NSCopying, @unchecked Sendable {
    /// The indexed attribute or to-one relationship.
    public private(set) var property: NSPropertyDescription?
    /// The indexed property's name.
    public private(set) var propertyName: String?
    /// B-tree or R-tree.
    open var collationType: NSFetchIndexElementType
    /// Ascending unless set to false.
    open var isAscending: Bool = true
    /// The index holding this element.
    public internal(set) weak var indexDescription: NSFetchIndexDescription?

    /// An element indexing `property`.
    public init(property: NSPropertyDescription, collationType: NSFetchIndexElementType) {
        self.property = property
        propertyName = property.name
        self.collationType = collationType
        super.init()
    }

    /// A copy of the element, not yet in any index.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSFetchIndexElementDescription(property: property!, collationType: collationType)
        copy.isAscending = isAscending
        return copy
    }
}

/// A named index over properties of one entity, which the SQLite store creates as a real
/// index (`CREATE INDEX Z_<Entity>_<name>`) so fetches that filter or sort by those properties
/// use it.
///
/// For example:
/// ```swift
/// let byName = NSFetchIndexDescription(name: "byName", elements: [
///     NSFetchIndexElementDescription(property: lastName, collationType: .binary),
///     NSFetchIndexElementDescription(property: firstName, collationType: .binary),
/// ])
/// personEntity.indexes = [byName]
/// ```
open class NSFetchIndexDescription: NSObject, NSCopying, @unchecked Sendable {
    /// The index's name, unique within its entity.
    open var name: String
    /// The indexed properties, most significant first.
    open var elements: [NSFetchIndexElementDescription] {
        didSet { for element in elements { element.indexDescription = self } }
    }
    /// The entity whose `indexes` hold this index.
    public internal(set) weak var entity: NSEntityDescription?
    /// Apple's store indexes only the rows this predicate matches; ours indexes every row
    /// (same results, see the README's deliberate differences).
    open var partialIndexPredicate: NSPredicate?

    /// An index named `name` over `elements`.
    public init(name: String, elements: [NSFetchIndexElementDescription]?) {
        self.name = name
        self.elements = elements ?? []
        super.init()
        for element in self.elements { element.indexDescription = self }
    }

    /// A copy of the index and its elements, not yet in any entity.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSFetchIndexDescription(name: name, elements: elements.map { $0.copy() as! NSFetchIndexElementDescription })
        copy.partialIndexPredicate = partialIndexPredicate
        return copy
    }
}
