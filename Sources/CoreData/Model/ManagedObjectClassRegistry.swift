import Logging
import Synchronization

/// Maps an entity's `managedObjectClassName` to a Swift class.
///
/// Linux has no Objective-C runtime to look classes up by bare name, so a name is resolved
/// once: from the classes already used (every subclass joins the first time it is
/// instantiated or named in a typed fetch request), by `NSClassFromString` for a
/// module-qualified name, and otherwise by searching every class the loaded images declare
/// (`LoadedClassSearch`), so "Book" finds a subclass in a library or a test bundle before
/// anything has used it. The answer, a miss included, is remembered.
final class ManagedObjectClassRegistry: Sendable {
    static let shared = ManagedObjectClassRegistry()

    /// Where a name no class answers is reported, once per name.
    private let logger: Logger

    init(logger: Logger = Logger(label: "CoreData")) {
        self.logger = logger
    }

    // Read on every object's creation, from every context's queue at once; written once per
    // class or name: read-mostly tables, so readers take no lock. A name no class answers maps
    // to `NSManagedObject`.
    private let classesByName = ReadMostly<[String: NSManagedObject.Type]>([:])
    /// Classes already registered: every object's initialiser calls `register`, so the common
    /// case must not format type names.
    private let known = ReadMostly<Set<ObjectIdentifier>>([])
    /// The class registered or found known last: objects are made a class at a time, and
    /// comparing with it skips hashing into `known` and counting a reference to its storage,
    /// which every thread making objects shares. Classes are never forgotten, so a stale value
    /// still names a known class.
    private let lastKnown = Atomic<UInt>(0)

    /// Remembers `objectClass` under its bare and module-qualified names.
    func register(_ objectClass: NSManagedObject.Type) {
        let identifier = ObjectIdentifier(objectClass)
        if lastKnown.load(ordering: .acquiring) == UInt(bitPattern: identifier) { return }
        guard objectClass != NSManagedObject.self else { return }
        defer { lastKnown.store(UInt(bitPattern: identifier), ordering: .releasing) }
        guard !known.value.contains(identifier), known.update({ $0.insert(identifier).inserted }) else { return }
        let qualified = String(reflecting: objectClass)
        let bare = String(describing: objectClass)
        classesByName.update { classes in
            if classes[bare] == nil || classes[bare] == NSManagedObject.self { classes[bare] = objectClass }
            classes[qualified] = objectClass
        }
    }

    /// The class to instantiate for `entity`, falling back to `NSManagedObject`.
    func objectClass(for entity: NSEntityDescription) -> NSManagedObject.Type {
        let name = entity.managedObjectClassName ?? "NSManagedObject"
        if name == "NSManagedObject" || name.isEmpty { return NSManagedObject.self }
        if let found = classesByName.value[name] { return found }
        let found = search(name)
        let isFirstAnswer = classesByName.update { classes in
            guard classes[name] == nil else { return false }
            classes[name] = found ?? NSManagedObject.self
            return true
        }
        if let found {
            register(found)
        } else if isFirstAnswer {
            logger.warning("No NSManagedObject subclass named '\(name)' is loaded; objects of entity '\(entity.name ?? "")' are plain NSManagedObjects")
        }
        return classesByName.value[name] ?? NSManagedObject.self
    }

    private func search(_ name: String) -> NSManagedObject.Type? {
        let matches = LoadedClassSearch.classes(named: name, as: NSManagedObject.Type.self)
        if matches.count > 1 {
            logger.warning("Several NSManagedObject subclasses are named '\(name)' (\(matches.map { String(reflecting: $0) }.joined(separator: ", "))); using \(String(reflecting: matches[0])). Give the entity a module-qualified class name to choose.")
        }
        return matches.first
    }
}
