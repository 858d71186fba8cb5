/// Looks through any number of `Optional` wrappers around a value boxed in `Any` (a generic
/// setter's `T?`, a key path's `Optional<Optional<T>>`).
///
/// Every `@Managed` setter and every value read for a sort or predicate comes through here; a
/// protocol cast costs a few hundred instructions where building a `Mirror` cost over ten
/// thousand.
func unwrapOptional(_ value: Any?) -> Any? {
    guard let value else { return nil }
    guard let optional = value as? any OptionalBox else { return value }
    return unwrapOptional(optional.boxedValue)
}

protocol OptionalBox {
    var boxedValue: Any? { get }
}

extension Optional: OptionalBox {
    var boxedValue: Any? { self.map { $0 as Any } }
}
