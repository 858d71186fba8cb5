/// The errors of the query language, as `NSError`s in `NSCocoaErrorDomain`.
///
/// Apple raises an Objective-C exception for a malformed format string or an unknown key; we
/// throw instead, from the parse (`NSPredicate.parse(format:)`) or from the fetch that uses the
/// predicate, so that user-supplied text can never stop the process.
///
/// - A format string that does not parse: code 2048 (`NSFormattingError`), with the offset of
///   the offending character (in Unicode scalars) under `PredicateErrorPositionKey`.
/// - A predicate that parses but cannot apply (unknown key, to-many key where a single value is
///   needed, unbound variable, operator on the wrong kind of value): code 134060
///   (`NSCoreDataError`).
enum PredicateError {
    static let formattingCode = 2048

    static func syntax(_ message: String, at position: Int, in format: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: formattingCode, userInfo: [
            NSLocalizedDescriptionKey: "Unable to parse the format string \"\(format.prefix(200))\": \(message) at position \(position)",
            PredicateErrorPositionKey: position,
            PredicateErrorFormatKey: format,
        ])
    }

    static func semantic(_ message: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: NSCoreDataError, userInfo: [
            NSLocalizedDescriptionKey: message,
        ])
    }
}

/// userInfo key of a parse error: the offset (in Unicode scalars) where parsing failed.
public let PredicateErrorPositionKey = "NSPredicateErrorPosition"
/// userInfo key of a parse error: the format string that failed.
public let PredicateErrorFormatKey = "NSPredicateFormat"
