/// Maps an entity's `managedObjectClassName` to a Swift class.
///
/// Linux has no Objective-C runtime to look classes up by bare name, so a subclass is found
/// by `NSClassFromString` with a module prefix, or from this registry, which every subclass
/// joins the first time it is instantiated or named in a typed fetch request.
final class ManagedObjectClassRegistry: Sendable {
    static let shared = ManagedObjectClassRegistry()

    // Read on every object's creation, from every context's queue at once; written once per
    // class: read-mostly tables, so readers take no lock.
    private let classesByName = ReadMostly<[String: NSManagedObject.Type]>([:])
    private let modulesSeen = Locked<Set<String>>([ProcessInfo.processInfo.processName])
    /// Classes already registered: every object's initialiser calls `register`, so the common
    /// case must not format type names.
    private let known = ReadMostly<Set<ObjectIdentifier>>([])

    /// Remembers `objectClass` under its bare and module-qualified names.
    func register(_ objectClass: NSManagedObject.Type) {
        guard objectClass != NSManagedObject.self, !known.value.contains(ObjectIdentifier(objectClass)),
              known.update({ $0.insert(ObjectIdentifier(objectClass)).inserted }) else { return }
        let qualified = String(reflecting: objectClass)
        let bare = String(describing: objectClass)
        classesByName.update { classes in
            if classes[bare] == nil { classes[bare] = objectClass }
            classes[qualified] = objectClass
        }
        if let module = qualified.split(separator: ".").first, qualified.contains(".") {
            modulesSeen.withLock { _ = $0.insert(String(module)) }
        }
    }

    /// The class to instantiate for `entity`, falling back to `NSManagedObject`.
    func objectClass(for entity: NSEntityDescription) -> NSManagedObject.Type {
        let name = entity.managedObjectClassName ?? "NSManagedObject"
        if name == "NSManagedObject" { return NSManagedObject.self }
        if let found = classesByName.value[name] { return found }
        let candidates = [name] + modulesSeen.withLock { Array($0) }.map { "\($0).\(name)" }
        for candidate in candidates {
            if let found = NSClassFromString(candidate) as? NSManagedObject.Type {
                register(found)
                return found
            }
        }
        return NSManagedObject.self
    }
}
