/// Makes a Swift computed property of an `NSManagedObject` subclass visible to key-value coding,
/// as `@objc` does on Apple platforms: `value(forKey:)`, `setValue(_:forKey:)` (when the property
/// has a setter), `sectionNameKeyPath`, and predicates and sort descriptors evaluated in memory.
///
/// A property named like a transient attribute of the model replaces it, which is how Apple's
/// DateSectionTitles computes its `sectionIdentifier`.
///
/// For example:
/// ```swift
/// final class Book: NSManagedObject {
///     @Managed var title: String?
///     @KeyValueCoded var firstInitial: String {
///         title.flatMap { $0.first.map(String.init) } ?? ""
///     }
/// }
/// let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context,
///                                             sectionNameKeyPath: "firstInitial", cacheName: nil)
/// ```
@attached(peer, names: prefixed(KeyValueCoding_))
public macro KeyValueCoded() = #externalMacro(module: "CoreDataMacros", type: "KeyValueCodedMacro")

/// The marker `@KeyValueCoded` leaves beside a property; see `KeyValueCodedAccessor`.
public protocol KeyValueCodedProperty {
    /// The accessor key-value coding uses for the marked property.
    static var accessor: KeyValueCodedAccessor { get }
}

/// How key-value coding reads and writes one Swift property of a managed-object subclass.
public struct KeyValueCodedAccessor: @unchecked Sendable {
    // Key paths are immutable values; they are not declared Sendable on every toolchain.
    let read: (NSManagedObject) -> Any?
    let write: ((NSManagedObject, Any?) -> Void)?

    /// A read-only property.
    public init<Object: NSManagedObject, Value>(_ keyPath: KeyPath<Object, Value>) {
        read = { object in (object as? Object).flatMap { unwrapOptional($0[keyPath: keyPath]) } }
        write = nil
    }

    /// A property with a setter: `setValue(_:forKey:)` converts the value as `@Managed` does.
    public init<Object: NSManagedObject, Value>(_ keyPath: ReferenceWritableKeyPath<Object, Value>) {
        read = { object in (object as? Object).flatMap { unwrapOptional($0[keyPath: keyPath]) } }
        write = { object, value in
            guard let object = object as? Object else { return }
            guard let typed = ZeroValue.converted(value, to: Value.self) else {
                return object.noteMisuse("a \(value.map { "\(type(of: $0))" } ?? "nil") value cannot be set as \(Value.self)", key: "\(keyPath)")
            }
            object[keyPath: keyPath] = typed
        }
    }
}
