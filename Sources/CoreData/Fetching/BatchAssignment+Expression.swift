/// `NSExpression` values in `NSBatchUpdateRequest.propertiesToUpdate`.
extension BatchAssignment {
    /// An expression with no row in it (a constant, `now()`) is computed once; any other is
    /// checked against the model here, so a bad one throws before the store changes anything.
    ///
    /// For example, `NSExpression(forFunction: "add:to:", arguments: [NSExpression(forKeyPath: "tips"), NSExpression(forConstantValue: 1)])`
    /// adds one to every matching row's `tips`.
    init(_ expression: NSExpression, for attribute: NSAttributeDescription, in entity: NSEntityDescription) throws {
        if let error = expression.parseError { throw error }
        let node = expression.node
        let target = "Batch update of \(entity.name ?? ""): '\(attribute.name)'"
        if SQLCompiler.isConstant(node) {
            let raw = try PredicateEvaluator.evaluate(node, nil)
            let value = ManagedValueNormalizer.normalize(raw, for: attribute)
            if let value, !ManagedValueTypeCheck.accepts(value, for: attribute) {
                throw CoreDataError.make(NSManagedObjectValidationError, "\(target) cannot hold \(value) (\(type(of: value)))")
            }
            self.init(attribute: attribute, value: value)
            return
        }
        if node.callsAny(of: ExpressionFunction.aggregates) {
            throw CoreDataError.misuse("\(target): aggregate functions are not allowed in a batch update")
        }
        if node.readsThroughRelationships {
            throw CoreDataError.misuse("\(target): values may read the row's own attributes only, not key paths through relationships")
        }
        let typed = try ExpressionTyping(entity: entity).type(of: node)
        guard Self.fits(typed.type, into: attribute.attributeType), typed.type != .objectIDAttributeType else {
            throw CoreDataError.make(NSManagedObjectValidationError, "\(target) of type \(attribute.attributeType) cannot hold \(expression) (of type \(typed.type))")
        }
        self.init(attribute: attribute, value: nil, expression: node)
    }

    /// Numbers fit any numeric attribute (converted as the attribute's type says); other
    /// values only an attribute of their own type.
    private static func fits(_ type: NSAttributeType, into attributeType: NSAttributeType) -> Bool {
        if type == .undefinedAttributeType || type == attributeType { return true }
        return type.isNumeric && attributeType.isNumeric && attributeType != .decimalAttributeType
    }
}

private extension ExpressionNode {
    /// A key path of more than one step: UPDATE sees only the row it changes.
    var readsThroughRelationships: Bool {
        switch self {
        case .keyPath(_, let components): components.count > 1
        case .function(_, let arguments): arguments.contains { $0.readsThroughRelationships }
        default: false
        }
    }
}
