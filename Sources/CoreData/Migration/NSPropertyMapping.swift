/// How one destination property gets its value during a migration.
///
/// `valueExpression` is evaluated with `$source` (the source object), `$manager` (the
/// migration manager) and `$entityPolicy` bound; nil leaves the property at its default. An
/// inferred mapping copies with `$source.<name in the source model>`, which the SQLite store
/// runs as column copies instead of object by object.
open class NSPropertyMapping: NSObject, @unchecked Sendable {
    open var name: String?
    open var valueExpression: NSExpression?
    open var userInfo: [AnyHashable: Any]?

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
