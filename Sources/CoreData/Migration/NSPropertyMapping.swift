/// How one destination property gets its value during a migration.
///
/// `valueExpression` is evaluated with `$source` (the source object), `$manager` (the
/// migration manager) and `$entityPolicy` bound; nil leaves the property at its default. An
/// inferred mapping copies with `$source.<name in the source model>`, which the SQLite store
/// runs as column copies instead of object by object.
open class NSPropertyMapping: NSObject, @unchecked Sendable {
    /// The destination property this mapping sets.
    open var name: String?
    /// The value to set; nil leaves the property at its default.
    open var valueExpression: NSExpression?
    /// Anything your policy wants to carry with the mapping; the manager does not read it.
    open var userInfo: [AnyHashable: Any]?

    /// An empty mapping; set `name` and `valueExpression`.
    public override init() { super.init() }

    init(name: String, copying sourceName: String?) {
        self.name = name
        valueExpression = sourceName.map { NSExpression(format: "$source.\($0)") }
        super.init()
    }

    /// The source property this mapping copies unchanged (`$source.name`), or nil when it
    /// computes something else: what decides whether SQL alone can run a mapping.
    var copiedSourceKey: String? {
        guard let valueExpression, case .keyPath(.variable("source"), let components) = valueExpression.node,
              components.count == 1 else { return nil }
        return components[0]
    }
}
