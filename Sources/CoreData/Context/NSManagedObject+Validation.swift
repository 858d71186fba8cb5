/// The model's validation rules: mandatory properties, integer ranges, validation predicates
/// (min/max, lengths, patterns), relationship counts and deny rules, with Apple's error codes.
extension NSManagedObject {
    func validatePropertyRules() throws {
        var errors = deferredErrors
        // One read of the values: each `values` access is a pass through the object's state.
        let values = self.values
        let properties = values.index.properties
        for ordinal in properties.indices where !properties[ordinal].isTransient {
            if let attribute = properties[ordinal] as? NSAttributeDescription {
                if Self.isPlainlyValid(values[ordinal: ordinal], for: attribute) { continue }
                errors += validate(attribute)
            } else if let relationship = properties[ordinal] as? NSRelationshipDescription {
                errors += validate(relationship)
            }
        }
        try Self.throwCombined(errors)
    }

    /// True for a value of the attribute's own stored kind, within its integer range, where no
    /// validation predicate is to run: what almost every attribute of every saved object holds,
    /// judged without making its Foundation form, which cost more than the rest of the save of
    /// such an object. Anything else takes the full check.
    private static func isPlainlyValid(_ slot: ObjectValues.Slot?, for attribute: NSAttributeDescription) -> Bool {
        guard case .stored(let value)? = slot, attribute.validationPredicates.isEmpty else { return false }
        switch (attribute.attributeType, value) {
        case (.integer16AttributeType, .integer(let integer)), (.integer32AttributeType, .integer(let integer)),
             (.integer64AttributeType, .integer(let integer)):
            return attribute.attributeType.integerRange?.contains(integer) ?? false
        case (.booleanAttributeType, .integer), (.doubleAttributeType, .real), (.floatAttributeType, .real),
             (.stringAttributeType, .text), (.dateAttributeType, .date), (.binaryDataAttributeType, .data):
            return true
        default:
            return false
        }
    }

    func validateDeleteRules() throws {
        var errors: [NSError] = []
        for relationship in entity.relationshipsByName.values where relationship.deleteRule == .denyDeleteRule {
            let hasDestinations = relationship.isToMany
                ? toManyMembers(forKey: relationship.name).objects.contains { !$0.deletedFlag }
                : (primitiveValue(forKey: relationship.name) as? NSManagedObject).map { !$0.deletedFlag } ?? false
            if hasDestinations {
                errors.append(validationError(NSValidationRelationshipDeniedDeleteError, relationship.name, nil,
                    "\(entity.name ?? "") cannot be deleted while '\(relationship.name)' has destinations (deny rule)"))
            }
        }
        try Self.throwCombined(errors)
    }

    /// One error as it is, several as 1560 with the individual errors under NSDetailedErrorsKey.
    static func throwCombined(_ errors: [NSError]) throws {
        let flat = errors.flatMap { error -> [NSError] in
            error.code == NSValidationMultipleErrorsError ? (error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? [error]) : [error]
        }
        if flat.count == 1 { throw flat[0] }
        if flat.count > 1 {
            throw CoreDataError.make(NSValidationMultipleErrorsError, "Multiple validation errors occurred.", [NSDetailedErrorsKey: flat])
        }
    }

    private func validate(_ attribute: NSAttributeDescription) -> [NSError] {
        let value = values[attribute.name]
        guard let value else {
            return attribute.isOptional ? [] : [validationError(NSValidationMissingMandatoryPropertyError, attribute.name, nil,
                "\(attribute.name) is a required value.")]
        }
        if !ManagedValueTypeCheck.accepts(value, for: attribute) {
            return [validationError(NSManagedObjectValidationError, attribute.name, value,
                "\(attribute.name) holds a \(type(of: value)), which does not fit an attribute of type \(attribute.attributeType)")]
        }
        if let range = attribute.attributeType.integerRange, let number = value as? NSNumber {
            let integer = number.int64Value
            if integer > range.upperBound { return [validationError(NSValidationNumberTooLargeError, attribute.name, value, "\(attribute.name) is too large.")] }
            if integer < range.lowerBound { return [validationError(NSValidationNumberTooSmallError, attribute.name, value, "\(attribute.name) is too small.")] }
        }
        var errors: [NSError] = []
        for (index, predicate) in attribute.validationPredicates.enumerated() where !predicate.evaluate(with: value) {
            let warning = index < attribute.validationWarnings.count ? attribute.validationWarnings[index] : nil
            let code = (warning as? Int) ?? (warning as? NSNumber)?.intValue ?? NSManagedObjectValidationError
            let message = (warning as? String) ?? Self.validationMessage(code: code, key: attribute.name, predicate: predicate)
            var error = validationError(code, attribute.name, value, message)
            var info = error.userInfo
            info[NSValidationPredicateErrorKey] = predicate
            error = NSError(domain: error.domain, code: error.code, userInfo: info)
            errors.append(error)
        }
        return errors
    }

    private func validate(_ relationship: NSRelationshipDescription) -> [NSError] {
        if !relationship.isToMany {
            let target = toOneDestination(forKey: relationship.name)
            if (target == nil || target!.deletedFlag) && !relationship.isOptional {
                return [validationError(NSValidationMissingMandatoryPropertyError, relationship.name, nil, "\(relationship.name) is a required value.")]
            }
            return []
        }
        guard !isToManyFault(relationship.name) else { return [] }
        let count = toManyMembers(forKey: relationship.name).objects.filter { !$0.deletedFlag }.count
        if count == 0 && relationship.isOptional { return [] }
        // A to-many value is a set, never nil, so "non-optional" alone asks for nothing more:
        // Apple enforces only `minCount` (an empty, non-optional set with minCount 0 is valid).
        if count < relationship.minCount {
            return [validationError(NSValidationRelationshipLacksMinimumCountError, relationship.name, nil, "\(relationship.name) has too few members.")]
        }
        if relationship.maxCount > 1, count > relationship.maxCount {
            return [validationError(NSValidationRelationshipExceedsMaximumCountError, relationship.name, nil, "\(relationship.name) has too many members.")]
        }
        return []
    }

    /// Apple's wording for each validation code.
    private static func validationMessage(code: Int, key: String, predicate: NSPredicate) -> String {
        switch code {
        case NSValidationNumberTooLargeError: "\(key) is too large."
        case NSValidationNumberTooSmallError: "\(key) is too small."
        case NSValidationDateTooLateError: "\(key) is too late."
        case NSValidationDateTooSoonError: "\(key) is too soon."
        case NSValidationStringTooLongError: "\(key) is too long."
        case NSValidationStringTooShortError: "\(key) is too short."
        case NSValidationStringPatternMatchingError: "\(key) does not match its pattern."
        default: "\(key) fails its validation rule \(predicate.canonicalFormat)."
        }
    }

    private func validationError(_ code: Int, _ key: String, _ value: Any?, _ message: String) -> NSError {
        var info: [String: Any] = [NSValidationObjectErrorKey: self, NSValidationKeyErrorKey: key]
        if let value { info[NSValidationValueErrorKey] = value }
        return CoreDataError.make(code, message, info)
    }
}

/// Whether a value set through key-value coding can be stored in an attribute.
enum ManagedValueTypeCheck {
    static func accepts(_ value: Any, for attribute: NSAttributeDescription) -> Bool {
        switch attribute.attributeType {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType,
             .doubleAttributeType, .floatAttributeType:
            value is NSNumber
        case .decimalAttributeType: value is Decimal
        case .stringAttributeType: value is String
        case .dateAttributeType: value is Date
        case .binaryDataAttributeType: value is Data
        case .UUIDAttributeType: value is UUID
        case .URIAttributeType: value is URL
        case .objectIDAttributeType: value is NSManagedObjectID
        case .compositeAttributeType: value is [String: Any] || value is NSDictionary
        case .transformableAttributeType, .undefinedAttributeType: true
        }
    }
}
