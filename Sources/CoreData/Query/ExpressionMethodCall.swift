/// An object whose methods `FUNCTION(receiver, "selector:", …)` may call. Linux has no
/// Objective-C messaging, so each receiver answers the selectors it supports itself (the
/// migration manager answers `destinationInstancesForEntityMappingName:sourceInstances:`).
protocol ExpressionMethodReceiver {
    /// The result of the method `selector` with `arguments` (collections as arrays); throws
    /// for a selector the receiver does not support.
    func performExpressionMethod(_ selector: String, arguments: [Any?]) throws -> Any?
}

/// Runs `FUNCTION(receiver, "selector", …)` in memory: the string methods Apple's mapping
/// models and predicates use most, and any `ExpressionMethodReceiver`'s own.
enum ExpressionMethodCall {
    static func perform(_ selector: String, on receiver: Any?, arguments: [Any?]) throws -> Any? {
        if let receiver = receiver as? ExpressionMethodReceiver {
            return try receiver.performExpressionMethod(selector, arguments: arguments)
        }
        guard receiver != nil else { return nil }   // messaging nil answers nil
        if let text = string(receiver), let result = try stringMethod(selector, text, arguments) {
            return result
        }
        throw PredicateError.semantic("FUNCTION: \(type(of: receiver!)) does not support \(selector)")
    }

    /// A string argument, whether it arrived as `String` or `NSString`.
    static func string(_ value: Any?) -> String? {
        value as? String ?? (value as? NSString).map(String.init)
    }

    private static func stringMethod(_ selector: String, _ text: String, _ arguments: [Any?]) throws -> Any? {
        let argument = string(arguments.first ?? nil)
        switch selector {
        case "uppercaseString": return text.uppercased()
        case "lowercaseString": return text.lowercased()
        case "capitalizedString": return text.capitalized
        case "length": return text.utf16.count
        case "stringByTrimmingWhitespace": return text.trimmingCharacters(in: .whitespacesAndNewlines)
        case "stringByAppendingString:":
            guard let suffix = argument else { throw PredicateError.semantic("\(selector) needs a string") }
            return text + suffix
        case "componentsSeparatedByString:":
            guard let separator = argument else { throw PredicateError.semantic("\(selector) needs a string") }
            return text.components(separatedBy: separator)
        default: return nil
        }
    }
}
