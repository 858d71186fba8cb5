/// A store option of ours, beyond Apple: `true` lets lightweight migration infer a change of
/// attribute type whose values convert (numbers among numeric types, numbers to strings, a
/// string to a URI and back), which Apple's inference refuses (134190). Give it beside
/// `NSInferMappingModelAutomaticallyOption`, or to
/// `NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:options:)`.
///
/// For example:
/// ```swift
/// description.setOption(true as NSNumber, forKey: NSInferAttributeTypeConversionsOption)
/// ```
public let NSInferAttributeTypeConversionsOption = "PortableCoreDataInferAttributeTypeConversions"

/// A change of attribute type that `NSInferAttributeTypeConversionsOption` lets lightweight
/// migration infer, and the SQL that carries it out on a stored value: numbers convert among
/// themselves (integers truncate), and numbers and strings become strings. Anything else (a
/// string to a date, data to a string) needs a custom migration.
enum AttributeConversion {
    case unchanged, integer, real, decimal, boolean, text

    init?(from source: NSAttributeDescription, to destination: NSAttributeDescription) {
        let from = source.attributeType, to = destination.attributeType
        if from == to {
            guard let sourceComposite = source as? NSCompositeAttributeDescription,
                  let destinationComposite = destination as? NSCompositeAttributeDescription else { self = .unchanged; return }
            // Element by element: every element both have must convert.
            let sourceLeaves = Dictionary(sourceComposite.leaves.map { ($0.path, $0.attribute) }, uniquingKeysWith: { first, _ in first })
            for leaf in destinationComposite.leaves {
                if let sourceLeaf = sourceLeaves[leaf.path], Self(from: sourceLeaf, to: leaf.attribute) == nil { return nil }
            }
            self = .unchanged
            return
        }
        let textual: Set<NSAttributeType> = [.stringAttributeType, .URIAttributeType]
        if Self.isNumber(from) {
            switch to {
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType: self = .integer
            case .doubleAttributeType, .floatAttributeType: self = .real
            case .decimalAttributeType: self = .decimal
            case .booleanAttributeType: self = .boolean
            case .stringAttributeType: self = .text
            default: return nil
            }
        } else if textual.contains(from) && textual.contains(to) {
            self = .unchanged
        } else {
            return nil
        }
    }

    private static func isNumber(_ type: NSAttributeType) -> Bool {
        [.integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .doubleAttributeType,
         .floatAttributeType, .decimalAttributeType, .booleanAttributeType].contains(type)
    }

    /// `value` (a SQL expression of the stored source value) as the destination stores it.
    func sql(_ value: String, dialect: SQLDialect) -> String {
        switch self {
        case .unchanged: value
        case .integer: dialect.convertedToInteger(value)
        case .real: dialect.real(value)
        // Decimals are stored as exact text (SQLiteSchema).
        case .decimal, .text: "CAST(\(value) AS TEXT)"
        case .boolean: "(CASE WHEN \(value) IS NULL THEN NULL WHEN \(value) <> 0 THEN 1 ELSE 0 END)"
        }
    }
}
