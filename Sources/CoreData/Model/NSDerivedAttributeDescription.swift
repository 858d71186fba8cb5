/// An attribute whose value the framework computes from `derivationExpression` whenever a save
/// writes the object, so fetches can filter and sort on it as on any stored column (a
/// `searchName` folded for comparison, a `bookCount` that spares a join).
///
/// For example:
/// ```swift
/// let count = NSDerivedAttributeDescription(name: "bookCount", type: .integer64AttributeType)
/// count.derivationExpression = NSExpression(format: "books.@count")
/// ```
///
/// The expression may be a key path of the object, through to-one relationships, ending in a
/// collection operator over a to-many (`books.@count`, `books.@sum.pages`), or one of the
/// functions `lowercase:`, `uppercase:`, `canonical:` (case and diacritics folded) and `now()`
/// over such a key path. Apple's SQLite store computes the value inside the store; we compute
/// it in the saving context just before the write, so the object shows its new value at once
/// (see the README's deliberate differences). Objects that derive from a changed related
/// object through the inverse of their path's first relationship are recomputed in the same save.
open class NSDerivedAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    /// How the value is computed from the object (see the type's discussion for what is accepted).
    public var derivationExpression: NSExpression? { willSet { requireEditable("derivationExpression") } }

    /// A derived attribute with no expression yet.
    public override init() { super.init() }

    override func copyProperty() -> NSPropertyDescription {
        let copy = NSDerivedAttributeDescription()
        copyAttribute(into: copy)
        copy.derivationExpression = derivationExpression
        return copy
    }

    /// The relationship each key path of the expression starts with, if it starts with one:
    /// a change to an object at the far end of it can change this attribute's value.
    var firstRelationships: [NSRelationshipDescription] {
        guard let node = derivationExpression?.node, let entity else { return [] }
        var found: [NSRelationshipDescription] = []
        func visit(_ node: ExpressionNode) {
            switch node {
            case .keyPath(.evaluatedObject, let components):
                if let first = components.first, let relationship = entity.relationshipsByName[first],
                   !found.contains(where: { $0 === relationship }) {
                    found.append(relationship)
                }
            case .keyPath(let base, _): visit(base)
            case .function(_, let arguments), .aggregate(let arguments): arguments.forEach(visit)
            case .constant, .evaluatedObject, .variable, .subquery, .fetch: break
            }
        }
        visit(node)
        return found
    }
}
