/// Reading store options as callers pass them: Swift values from Swift code, `NSNumber`s and
/// `NSDictionary`s from a description's `setOption(_:forKey:)` or code ported from Objective-C.
enum StoreOptions {
    /// A yes/no option; absent means no.
    static func flag(_ key: String, in options: [AnyHashable: Any]) -> Bool {
        if let flag = options[key] as? Bool { return flag }
        return (options[key] as? NSNumber)?.boolValue ?? false
    }

    /// A dictionary option keyed by strings: empty when absent, nil when it is not a dictionary.
    static func dictionary(_ key: String, in options: [AnyHashable: Any]) -> [String: Any]? {
        guard let value = options[key] else { return [:] }
        if let dictionary = value as? [String: Any] { return dictionary }
        guard let dictionary = value as? NSDictionary else { return nil }
        var result: [String: Any] = [:]
        for (key, value) in dictionary {
            guard let key = key as? String else { return nil }
            result[key] = value
        }
        return result
    }
}
