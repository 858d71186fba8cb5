/// Builds the `NSError`s this library throws: `NSCocoaErrorDomain`, Apple's codes and keys.
enum CoreDataError {
    static func make(_ code: Int, _ message: String, _ userInfo: [String: Any] = [:]) -> NSError {
        var info = userInfo
        info[NSLocalizedDescriptionKey] = message
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: info)
    }

    /// Apple raises an exception for API misuse; we throw this instead (NSCoreDataError).
    static func misuse(_ message: String, _ userInfo: [String: Any] = [:]) -> NSError {
        make(NSCoreDataError, message, userInfo)
    }

    /// A value a store cannot write as `attribute`'s type (1550, naming the attribute).
    static func typeMismatch(_ value: Any, _ attribute: NSAttributeDescription) -> NSError {
        make(NSManagedObjectValidationError, "Value \(value) of type \(type(of: value)) cannot be stored in attribute '\(attribute.name)' of type \(attribute.attributeType)", [
            NSValidationKeyErrorKey: attribute.name, NSValidationValueErrorKey: value,
        ])
    }
}
