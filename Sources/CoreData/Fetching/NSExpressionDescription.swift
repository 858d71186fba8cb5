/// A computed column of a dictionary fetch: an expression (often an aggregate such as `sum:`)
/// and the key its value is returned under.
///
/// For example:
/// ```swift
/// let totalDeals = NSExpressionDescription()
/// totalDeals.name = "totalDeals"
/// totalDeals.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "specialCount")])
/// totalDeals.expressionResultType = .integer64AttributeType
/// request.resultType = .dictionaryResultType
/// request.propertiesToFetch = [totalDeals]
/// ```
///
/// Its type name is written `CoreData.NSExpression` in files that also see Foundation's.
open class NSExpressionDescription: NSPropertyDescription, @unchecked Sendable {
    /// What to compute: a key path, a function such as `sum:` or `count:`, or an arithmetic expression.
    public var expression: NSExpression?
    /// How the value is returned: `.integer64AttributeType` as an integer `NSNumber`,
    /// `.dateAttributeType` as a `Date`, ... `.undefinedAttributeType` keeps SQLite's own type.
    public var expressionResultType: NSAttributeType = .undefinedAttributeType

    /// An empty, transient description; set `name`, `expression` and `expressionResultType`.
    public override init() {
        super.init()
        isTransient = true
    }

    override func copyProperty() -> NSPropertyDescription {
        let copy = NSExpressionDescription()
        copyCommon(into: copy)
        copy.expression = expression
        copy.expressionResultType = expressionResultType
        return copy
    }
}
