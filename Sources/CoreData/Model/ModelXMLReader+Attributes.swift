/// Attributes: their types, typed default values and validation rules.
extension ModelXMLReader {
    /// The `attributeType` spellings Xcode writes.
    static let attributeTypesByName: [String: NSAttributeType] = [
        "Integer 16": .integer16AttributeType,
        "Integer 32": .integer32AttributeType,
        "Integer 64": .integer64AttributeType,
        "Decimal": .decimalAttributeType,
        "Double": .doubleAttributeType,
        "Float": .floatAttributeType,
        "String": .stringAttributeType,
        "Boolean": .booleanAttributeType,
        "Date": .dateAttributeType,
        "Binary": .binaryDataAttributeType,
        "UUID": .UUIDAttributeType,
        "URI": .URIAttributeType,
        "Transformable": .transformableAttributeType,
        "Undefined": .undefinedAttributeType,
        "Composite": .compositeAttributeType,
    ]

    /// - parameter compositeDepth: how many composites enclose this attribute, to refuse a
    ///   composite that contains itself.
    func buildAttribute(_ element: ModelXMLElement, entityName: String, compositeDepth: Int = 0) throws(ModelXMLError) -> NSAttributeDescription {
        let derived = element.flag("derived") ? NSDerivedAttributeDescription() : nil
        let composite = element["attributeType"] == "Composite" ? NSCompositeAttributeDescription() : nil
        let attribute = derived ?? composite ?? NSAttributeDescription()
        try applyCommonSettings(of: element, to: attribute, kind: "attribute")
        let place = "attribute '\(entityName).\(attribute.name)'"
        if let derived {
            guard let text = element["derivationExpression"], !text.isEmpty else {
                throw ModelXMLError(line: element.line, "\(place) is derived but has no derivationExpression")
            }
            let expression = NSExpression(format: text)
            if let problem = expression.parseError {
                throw ModelXMLError(line: element.line, "\(place) has a derivationExpression that does not parse: \(problem.localizedDescription)")
            }
            derived.derivationExpression = expression
        }
        guard let typeName = element["attributeType"] else {
            throw ModelXMLError(line: element.line, "\(place) has no attributeType")
        }
        guard let type = Self.attributeTypesByName[typeName] else {
            throw ModelXMLError(line: element.line, "\(place) has unknown attributeType '\(typeName)'")
        }
        if type == .undefinedAttributeType, !attribute.isTransient {
            throw ModelXMLError(line: element.line, "\(place) is Undefined but not transient")
        }
        attribute.attributeType = type
        if let composite {
            composite.elements = try compositeElements(named: element["composite"], line: element.line, place: place, depth: compositeDepth)
        }
        attribute.allowsExternalBinaryDataStorage = element.flag("allowsExternalBinaryDataStorage")
        attribute.preservesValueInHistoryOnDeletion = element.flag("preserveAfterDeletion")
        if type == .transformableAttributeType {
            attribute.valueTransformerName = element["valueTransformerName"].flatMap { $0.isEmpty ? nil : $0 }
            attribute.attributeValueClassName = element["customClassName"].flatMap { $0.isEmpty ? nil : $0 }
        }
        let reader = AttributeValueReader(type: type, line: element.line, place: place)
        attribute.defaultValue = try reader.defaultValue(of: element)
        let (predicates, warnings) = try reader.validationRules(of: element)
        if !predicates.isEmpty {
            attribute.setValidationPredicates(predicates, withValidationWarnings: warnings)
        }
        return attribute
    }
}

extension ModelXMLReader {
    /// The elements of the `<composite name=...>` a composite attribute names: attributes,
    /// themselves possibly composite.
    private func compositeElements(named name: String?, line: Int, place: String, depth: Int) throws(ModelXMLError) -> [NSAttributeDescription] {
        guard let name, let definition = root.children(named: "composite").first(where: { $0["name"] == name }) else {
            throw ModelXMLError(line: line, "\(place) is Composite but names no composite of this model ('\(name ?? "")')")
        }
        guard depth < 16 else { throw ModelXMLError(line: line, "\(place): composite '\(name)' contains itself") }
        var elements: [NSAttributeDescription] = []
        for child in definition.children(named: "attribute") {
            elements.append(try buildAttribute(child, entityName: name, compositeDepth: depth + 1))
        }
        guard !elements.isEmpty else { throw ModelXMLError(line: definition.line, "composite '\(name)' has no elements") }
        return elements
    }
}

/// Turns an attribute's value strings into typed values and validation predicates.
///
/// Defaults use the classes Apple's loaded models hold (`NSNumber`, `NSDecimalNumber`, `Date`,
/// `UUID`, `URL`), which on Linux still cast to Swift's `Int32`, `Bool`, `Decimal` and so on.
/// Dates are seconds since 2001-01-01 in Xcode's `defaultDateTimeInterval`,
/// `minDateTimeInterval` and `maxDateTimeInterval`; `min/maxValueString` on a date is read the
/// same way, for hand-written files.
struct AttributeValueReader {
    let type: NSAttributeType
    let line: Int
    let place: String

    func defaultValue(of element: ModelXMLElement) throws(ModelXMLError) -> Any? {
        if type == .dateAttributeType {
            // Xcode 3-era files also wrote defaultValueString="now"; there is no such default.
            guard let text = element["defaultDateTimeInterval"] ?? element["defaultValueString"].flatMap({ Double($0) == nil ? nil : $0 }) else {
                return nil
            }
            return Date(timeIntervalSinceReferenceDate: try double(text, what: "default date"))
        }
        guard let text = element["defaultValueString"] else { return nil }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            return integerNumber(try integer(text, what: "default value"))
        case .decimalAttributeType:
            return NSDecimalNumber(decimal: try decimal(text, what: "default value"))
        case .doubleAttributeType:
            return NSNumber(value: try double(text, what: "default value"))
        case .floatAttributeType:
            return NSNumber(value: Float(try double(text, what: "default value")))
        case .booleanAttributeType:
            return NSNumber(value: try boolean(text))
        case .stringAttributeType:
            return text
        case .UUIDAttributeType:
            if text.isEmpty { return nil }
            guard let uuid = UUID(uuidString: text) else { throw invalid(text, "default value", "a UUID") }
            return uuid
        case .URIAttributeType:
            if text.isEmpty { return nil }
            guard let url = URL(string: text) else { throw invalid(text, "default value", "a URI") }
            return url
        default:
            // Xcode offers no default for binary, transformable or undefined attributes.
            return nil
        }
    }

    /// The predicates and Cocoa error codes Xcode's Validation fields stand for, in the order
    /// minimum, maximum, pattern.
    func validationRules(of element: ModelXMLElement) throws(ModelXMLError) -> ([NSPredicate], [Any]) {
        var predicates: [NSPredicate] = []
        var warnings: [Any] = []
        func add(_ format: String, _ argument: Any, _ code: Int) {
            predicates.append(NSPredicate(format: format, argumentArray: [argument]))
            warnings.append(code)
        }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            if let text = element["minValueString"] {
                add("SELF >= %@", integerNumber(try integer(text, what: "minimum")), NSValidationNumberTooSmallError)
            }
            if let text = element["maxValueString"] {
                add("SELF <= %@", integerNumber(try integer(text, what: "maximum")), NSValidationNumberTooLargeError)
            }
        case .doubleAttributeType, .floatAttributeType:
            if let text = element["minValueString"] {
                add("SELF >= %@", NSNumber(value: try double(text, what: "minimum")), NSValidationNumberTooSmallError)
            }
            if let text = element["maxValueString"] {
                add("SELF <= %@", NSNumber(value: try double(text, what: "maximum")), NSValidationNumberTooLargeError)
            }
        case .decimalAttributeType:
            if let text = element["minValueString"] {
                add("SELF >= %@", NSDecimalNumber(decimal: try decimal(text, what: "minimum")), NSValidationNumberTooSmallError)
            }
            if let text = element["maxValueString"] {
                add("SELF <= %@", NSDecimalNumber(decimal: try decimal(text, what: "maximum")), NSValidationNumberTooLargeError)
            }
        case .dateAttributeType:
            if let text = element["minDateTimeInterval"] ?? element["minValueString"] {
                add("SELF >= %@", Date(timeIntervalSinceReferenceDate: try double(text, what: "minimum date")), NSValidationDateTooSoonError)
            }
            if let text = element["maxDateTimeInterval"] ?? element["maxValueString"] {
                add("SELF <= %@", Date(timeIntervalSinceReferenceDate: try double(text, what: "maximum date")), NSValidationDateTooLateError)
            }
        case .stringAttributeType:
            if let text = element["minValueString"] {
                add("length >= %@", NSNumber(value: try length(text, what: "minimum length")), NSValidationStringTooShortError)
            }
            if let text = element["maxValueString"] {
                add("length <= %@", NSNumber(value: try length(text, what: "maximum length")), NSValidationStringTooLongError)
            }
            if let pattern = element["regularExpressionString"], !pattern.isEmpty {
                // Rejected here rather than at the first save that evaluates it.
                guard (try? NSRegularExpression(pattern: pattern)) != nil else {
                    throw invalid(pattern, "regular expression", "a valid pattern")
                }
                add("SELF MATCHES %@", pattern, NSValidationStringPatternMatchingError)
            }
        default:
            break
        }
        return (predicates, warnings)
    }

    // MARK: Scalars

    /// An integer within the range of the attribute's width.
    private func integer(_ text: String, what: String) throws(ModelXMLError) -> Int64 {
        guard let value = Int64(text.trimmingCharacters(in: .whitespaces)), type.integerRange?.contains(value) ?? true else {
            throw invalid(text, what, "an integer that fits the attribute's type")
        }
        return value
    }

    /// Wrapped in the width Apple uses, so `as? Int16` works on the result as it does there.
    private func integerNumber(_ value: Int64) -> NSNumber {
        switch type {
        case .integer16AttributeType: NSNumber(value: Int16(truncatingIfNeeded: value))
        case .integer32AttributeType: NSNumber(value: Int32(truncatingIfNeeded: value))
        default: NSNumber(value: value)
        }
    }

    private func double(_ text: String, what: String) throws(ModelXMLError) -> Double {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            throw invalid(text, what, "a finite number")
        }
        return value
    }

    /// Checked with `Double` first: `Decimal(string:)` accepts a valid prefix ("1.5abc").
    private func decimal(_ text: String, what: String) throws(ModelXMLError) -> Decimal {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard Double(trimmed)?.isFinite == true, let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX")) else {
            throw invalid(text, what, "a decimal number")
        }
        return value
    }

    private func length(_ text: String, what: String) throws(ModelXMLError) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw invalid(text, what, "a length (a whole number, 0 or more)")
        }
        return value
    }

    private func boolean(_ text: String) throws(ModelXMLError) -> Bool {
        switch text {
        case "YES", "yes", "true", "1": return true
        case "NO", "no", "false", "0": return false
        default: throw invalid(text, "default value", "YES or NO")
        }
    }

    private func invalid(_ text: String, _ what: String, _ expected: String) -> ModelXMLError {
        ModelXMLError(line: line, "\(what) '\(text)' of \(place) is not \(expected)")
    }
}
