/// Declares a property of an `NSManagedObject` subclass backed by the model's attribute or
/// relationship of the same name: the Linux replacement for `@NSManaged`.
///
/// For example:
/// ```swift
/// final class BowTie: NSManagedObject {
///     @Managed var name: String?
///     @Managed var timesWorn: Int32
///     @Managed("lastWorn") var lastWornDate: Date?
/// }
/// ```
@attached(accessor)
@attached(peer, names: prefixed(_managedBinding_))
public macro Managed(_ key: String? = nil) = #externalMacro(module: "CoreDataMacros", type: "ManagedMacro")
