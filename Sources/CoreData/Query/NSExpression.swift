/// Apple's `NSExpression`, our own class: Foundation on Linux declares the name but makes every
/// initializer unavailable, so it cannot be extended. Calls such as
/// `NSExpression(forKeyPath: "price")` resolve to this class; where a file imports Foundation
/// and names the type itself, write `CoreData.NSExpression`.
///
/// For example:
/// ```swift
/// let total = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "price")])
/// ```
open class NSExpression: NSObject, NSCopying, @unchecked Sendable {
    /// Apple's raw values.
    public enum ExpressionType: UInt, Sendable {
        /// A fixed value (`constantValue`).
        case constantValue = 0
        /// The object being evaluated (`SELF`).
        case evaluatedObject = 1
        /// A substitution variable (`$name`).
        case variable = 2
        /// A key path of the evaluated object.
        case keyPath = 3
        /// A function such as `sum:` applied to `arguments`.
        case function = 4
        /// A `SUBQUERY` over a to-many relationship.
        case subquery = 13
        /// A collection of expressions (`{…}`).
        case aggregate = 14
        /// `FETCH(request, context, countOnly)`: Core Data's `NSFetchRequestExpressionType`.
        case fetchRequest = 50
    }

    // Immutable after init, hence the unchecked Sendable.
    let node: ExpressionNode
    /// Set when `init(format:)` was given text that does not parse.
    let parseError: NSError?
    private var holdsConstantCollection = false

    init(node: ExpressionNode, parseError: NSError? = nil) {
        self.node = node
        self.parseError = parseError
        super.init()
    }

    /// The value at `keyPath` (dotted, through relationships) of the object evaluated.
    public convenience init(forKeyPath keyPath: String) {
        self.init(node: .key(keyPath))
    }

    /// A typed key path into a managed object subclass, named through the model's mapping.
    public convenience init<Root: NSManagedObject, Value>(forKeyPath keyPath: KeyPath<Root, Value>) {
        self.init(node: .key(NSManagedObject.propertyName(for: keyPath) ?? "\(keyPath)"))
    }

    /// A collection value becomes an aggregate of constants, so functions such as `median:`
    /// can read its members; its `expressionType` stays `.constantValue`, as Apple's does.
    public convenience init(forConstantValue value: Any?) {
        let node = (try? PredicateParser.expression(forArgument: value, depth: 0)) ?? .constant(.null)
        self.init(node: node)
        if case .aggregate = node { holdsConstantCollection = true }
    }

    /// The value bound to `$name` when the expression is evaluated (substitution variables, `$source` in migrations).
    public convenience init(forVariable name: String) {
        self.init(node: .variable(name))
    }

    /// The object being evaluated itself (`SELF` in a format string).
    public class func expressionForEvaluatedObject() -> NSExpression {
        NSExpression(node: .evaluatedObject)
    }

    /// `name` is a selector such as `"sum:"`, `"add:to:"` or `"now"`; `parameters` are
    /// `NSExpression`s (other values are taken as constants).
    public convenience init(forFunction name: String, arguments parameters: [Any]) {
        self.init(node: .function(name, parameters.map(Self.node(of:))))
    }

    /// A collection of expressions, as `{a, b, c}` writes it in a format string.
    public convenience init(forAggregate subexpressions: [Any]) {
        self.init(node: .aggregate(subexpressions.map(Self.node(of:))))
    }

    /// The members of the collection `expression` that satisfy `predicate`, with `variable` naming each (`SUBQUERY`).
    public convenience init(forSubquery expression: NSExpression, usingIteratorVariable variable: String, predicate: NSPredicate) {
        let tree = (try? predicate.parsedTree()) ?? .constant(false)
        self.init(node: .subquery(collection: expression.node, variable: variable, predicate: tree))
    }

    /// Parses an expression such as `"price * 2"`; a malformed one evaluates to nil.
    public convenience init(format expressionFormat: String, _ args: Any...) {
        self.init(format: expressionFormat, argumentArray: args)
    }

    /// The same as `init(format:_:)` with the arguments in an array.
    ///
    /// For example:
    /// ```swift
    /// let discounted = NSExpression(format: "price * %@", argumentArray: [0.9])
    /// ```
    public convenience init(format expressionFormat: String, argumentArray arguments: [Any]) {
        do {
            self.init(node: try PredicateParser.parseExpression(expressionFormat, arguments: arguments))
        } catch {
            self.init(node: .constant(.null), parseError: error as NSError)
        }
    }

    private static func node(of value: Any) -> ExpressionNode {
        if let expression = value as? NSExpression { return expression.node }
        return .constant(ConstantValue(any: value))
    }

    /// Which kind of expression this is, with Apple's raw values.
    public var expressionType: ExpressionType {
        if holdsConstantCollection { return .constantValue }
        switch node {
        case .constant: return .constantValue
        case .evaluatedObject: return .evaluatedObject
        case .variable: return .variable
        case .keyPath: return .keyPath
        case .function: return .function
        case .subquery: return .subquery
        case .aggregate: return .aggregate
        case .fetch: return .fetchRequest
        }
    }

    /// The dotted key path (empty for other kinds of expression).
    public var keyPath: String {
        guard case .keyPath(.evaluatedObject, let components) = node else { return "" }
        return components.joined(separator: ".")
    }

    /// The constant's value; nil for other kinds of expression.
    public var constantValue: Any? {
        if holdsConstantCollection { return try? PredicateEvaluator.evaluate(node, nil) }
        guard case .constant(let value) = node else { return nil }
        return value.anyValue
    }

    /// The function's selector name (`"sum:"`); empty for other kinds of expression.
    public var function: String {
        guard case .function(let name, _) = node else { return "" }
        return name
    }

    /// The function's arguments; nil for other kinds of expression.
    public var arguments: [NSExpression]? {
        guard case .function(_, let arguments) = node else { return nil }
        return arguments.map { NSExpression(node: $0) }
    }

    /// The variable's name, without `$`; empty for other kinds of expression.
    public var variable: String {
        guard case .variable(let name) = node else { return "" }
        return name
    }

    /// The members of an aggregate expression, as expressions.
    public var collection: Any {
        guard case .aggregate(let items) = node else { return [NSExpression]() }
        return items.map { NSExpression(node: $0) }
    }

    /// Evaluates against `object`; `context` supplies variables. Nil when the expression cannot
    /// apply (Apple raises).
    public func expressionValue(with object: Any?, context: NSMutableDictionary?) -> Any? {
        var variables: [String: Any] = [:]
        for case let (key as String, value) in context ?? [:] { variables[key] = value }
        return try? value(with: object, variables: variables)
    }

    /// Like `expressionValue(with:context:)`, but says why an expression cannot apply, for
    /// callers that report it (a migration's property mappings).
    func value(with object: Any?, variables: [String: Any]) throws -> Any? {
        if let parseError { throw parseError }
        return try PredicateEvaluator.evaluate(node, object, variables: variables)
    }

    /// The expression itself: expressions are immutable.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// True for an expression with the same parsed tree.
    open override func isEqual(_ object: Any?) -> Bool {
        (object as? NSExpression)?.node == node
    }

    /// A hash of the parsed tree, consistent with `isEqual(_:)`.
    open override var hash: Int { node.hashValue }

    /// The expression in format-string syntax.
    open override var description: String { PredicateFormatter.format(node) }
}
