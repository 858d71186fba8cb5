/// Linux has no Objective-C selectors; this names a comparison method the way Apple's
/// `NSSortDescriptor(key:ascending:selector:)` expects, so the call compiles unchanged.
///
/// For example:
/// ```swift
/// NSSortDescriptor(key: "title", ascending: true, selector: Selector("localizedStandardCompare:"))
/// ```
public struct Selector: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public init(stringLiteral name: String) {
        self.name = name
    }

    public var description: String { name }
}
