/// Looks through any number of `Optional` wrappers around a value boxed in `Any` (a generic
/// setter's `T?`, a key path's `Optional<Optional<T>>`).
///
/// Every `@Managed` setter and every value read for a sort or predicate comes through here; a
/// protocol cast costs a few hundred instructions where building a `Mirror` cost over ten
/// thousand.
func unwrapOptional(_ value: Any?) -> Any? {
    guard let value else { return nil }
    // Objects and the common attribute types are never optionals: a metatype comparison skips
    // the protocol search.
    let valueType = type(of: value)
    if valueType is AnyClass || plainValueTypes.contains(ObjectIdentifier(valueType)) { return value }
    guard let optional = value as? any OptionalBox else { return value }
    return unwrapOptional(optional.boxedValue)
}

private let plainValueTypes: Set<ObjectIdentifier> = Set([
    String.self, Int.self, Int16.self, Int32.self, Int64.self, Double.self, Float.self, Bool.self,
    Date.self, Data.self, UUID.self, URL.self, Decimal.self,
].map { ObjectIdentifier($0) })

protocol OptionalBox {
    var boxedValue: Any? { get }
}

extension Optional: OptionalBox {
    var boxedValue: Any? { self.map { $0 as Any } }
}
