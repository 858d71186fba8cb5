/// The type an expression of a dictionary fetch yields, checked against the model: unknown
/// keys and functions, to-many steps and functions applied to the wrong kind of value throw
/// before the store runs anything. The type also decides how a store returns each value
/// (`Date` for a `max:` of dates, an integer `NSNumber` for a `sum:` of integers).
struct ExpressionTyping {
    struct Typed {
        var type: NSAttributeType
        /// The entity of object IDs, for `.objectIDAttributeType`.
        var objectEntity: NSEntityDescription?

        var isNumeric: Bool { type.isNumeric }
    }

    /// The functions a dictionary fetch computes: aggregates in SQL (or in Swift for
    /// median, mode and stddev), and `abs:`, `now` and arithmetic on each row's values.
    static let supported: Set<ExpressionFunction> = ExpressionFunction.aggregates.union([.abs, .now, .add, .subtract, .multiply, .divide])

    let entity: NSEntityDescription

    func type(of node: ExpressionNode, insideAggregate: Bool = false) throws -> Typed {
        switch node {
        case .constant(let value):
            return Typed(type: Self.type(of: value))
        case .evaluatedObject:
            return Typed(type: .objectIDAttributeType, objectEntity: entity)
        case .keyPath(.evaluatedObject, let components):
            return try keyPathType(components)
        case .function(let selector, let arguments):
            return try functionType(selector, arguments, insideAggregate: insideAggregate)
        case .variable(let name):
            throw CoreDataError.misuse("The variable $\(name) has no value in a fetched expression")
        default:
            throw CoreDataError.misuse("\(PredicateFormatter.format(node)) cannot be fetched as a dictionary value")
        }
    }

    private func keyPathType(_ components: [String]) throws -> Typed {
        var current = entity
        let written = components.joined(separator: ".")
        for (index, key) in components.enumerated() {
            let isLast = index == components.count - 1
            if let attribute = current.attributesByName[key] {
                guard isLast else { throw CoreDataError.misuse("Key path '\(written)': '\(key)' is an attribute, not a relationship") }
                return Typed(type: attribute.attributeType)
            }
            guard let relationship = current.relationshipsByName[key], let destination = relationship.destinationEntity else {
                throw CoreDataError.misuse("Key path '\(written)' not found in entity \(current.name ?? "")")
            }
            guard !relationship.isToMany else {
                throw CoreDataError.misuse("Key path '\(written)' crosses the to-many relationship '\(key)'; dictionary fetches follow to-one relationships only")
            }
            if isLast { return Typed(type: .objectIDAttributeType, objectEntity: destination) }
            current = destination
        }
        return Typed(type: .objectIDAttributeType, objectEntity: current)
    }

    private func functionType(_ selector: String, _ arguments: [ExpressionNode], insideAggregate: Bool) throws -> Typed {
        guard let function = ExpressionFunction(selector: selector) else {
            throw CoreDataError.misuse("Unknown function '\(selector)' in a fetched expression")
        }
        guard Self.supported.contains(function) else {
            throw CoreDataError.misuse("The function '\(selector)' is not supported in a dictionary fetch; supported: \(Self.supported.map(\.selector).sorted().joined(separator: " "))")
        }
        guard function.accepts(argumentCount: arguments.count), !function.isAggregate || arguments.count == 1 else {
            throw CoreDataError.misuse("'\(selector)' given \(arguments.count) arguments")
        }
        if function.isAggregate, insideAggregate {
            throw CoreDataError.misuse("'\(selector)' is nested inside another aggregate")
        }
        let operands = try arguments.map { try type(of: $0, insideAggregate: insideAggregate || function.isAggregate) }
        let needsNumbers: Set<ExpressionFunction> = [.sum, .average, .median, .mode, .stddev, .abs, .add, .subtract, .multiply, .divide]
        if needsNumbers.contains(function), let wrong = operands.first(where: { !$0.isNumeric && $0.type != .undefinedAttributeType }) {
            throw CoreDataError.misuse("'\(selector)' needs numbers but is given a value of type \(wrong.type)")
        }
        switch function {
        case .count:
            return Typed(type: .integer64AttributeType)
        case .min, .max:
            let comparable: Set<NSAttributeType> = [.stringAttributeType, .dateAttributeType, .undefinedAttributeType]
            guard operands[0].isNumeric || comparable.contains(operands[0].type) else {
                throw CoreDataError.misuse("'\(selector)' needs numbers, strings or dates but is given a value of type \(operands[0].type)")
            }
            return operands[0]
        case .sum:
            return Typed(type: operands[0].type.isInteger || operands[0].type == .booleanAttributeType ? .integer64AttributeType : .doubleAttributeType)
        case .mode, .abs:
            return operands[0].type == .booleanAttributeType ? Typed(type: .integer64AttributeType) : operands[0]
        case .now:
            return Typed(type: .dateAttributeType)
        case .add, .subtract, .multiply:
            let integral = operands.allSatisfy { $0.type.isInteger || $0.type == .booleanAttributeType }
            return Typed(type: integral ? .integer64AttributeType : .doubleAttributeType)
        default:
            return Typed(type: .doubleAttributeType)
        }
    }

    static func type(of value: ConstantValue) -> NSAttributeType {
        switch value {
        case .bool: .booleanAttributeType
        case .int: .integer64AttributeType
        case .double: .doubleAttributeType
        case .decimal: .decimalAttributeType
        case .string: .stringAttributeType
        case .date: .dateAttributeType
        case .data: .binaryDataAttributeType
        case .uuid: .UUIDAttributeType
        case .url: .URIAttributeType
        case .null, .object: .undefinedAttributeType
        }
    }
}
