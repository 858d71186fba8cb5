/// Linux has no Objective-C selectors; this names a comparison method the way Apple's
/// `NSSortDescriptor(key:ascending:selector:)` expects, so the call compiles unchanged.
///
/// For example:
/// ```swift
/// NSSortDescriptor(key: "title", ascending: true, selector: Selector("localizedStandardCompare:"))
/// ```
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The selector's name with its colons, such as `"caseInsensitiveCompare:"`.
    public let name: String

    /// Names a comparison method; `compare:`, `caseInsensitiveCompare:` and the three `localized…Compare:` forms are understood.
    public init(_ name: String) {
        self.name = name
    }

    /// Lets a string literal stand where a selector is expected.
    public init(stringLiteral name: String) {
        self.name = name
    }

    /// The selector's name.
    public var description: String { name }
}
