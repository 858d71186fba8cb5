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
}
