#if canImport(Glibc)
import Glibc
#endif

/// Finds classes by name among every class the loaded images declare, by walking the type
/// context descriptors of their `swift5_type_metadata` sections (see `SwiftMetadataSections`).
///
/// Linux has no Objective-C class list: `NSClassFromString` needs a module-qualified name and
/// cannot reach private classes at all. The descriptors give each class's name and the chain of
/// contexts it is declared in (module, enclosing types), and its metadata access function
/// gives the class itself, which is how the Swift runtime resolves a name too.
enum LoadedClassSearch {
    /// Classes named `name`: a bare name ("Book") matches a class of that name in any module,
    /// nested or private ones included; a dotted name ("Library.Book") matches the class
    /// whose module and enclosing types spell it. Generic classes never match.
    ///
    /// O(number of types in the loaded images): call it once per name and remember the answer.
    static func classes(named name: String) -> [AnyClass] {
        var path = name.split(separator: ".", omittingEmptySubsequences: false).map { Array($0.utf8) }
        guard let last = path.popLast(), !last.isEmpty else { return [] }
        var found: [AnyClass] = []
        for records in SwiftMetadataSections.typeMetadataRecords {
            guard let base = records.baseAddress else { continue }
            for offset in stride(from: 0, to: records.count, by: 4) {
                guard let descriptor = typeDescriptor(at: base + offset),
                      let candidate = TypeDescriptor(descriptor), candidate.isClass, !candidate.isGeneric,
                      candidate.nameEquals(last), path.isEmpty || candidate.enclosingNames() == path,
                      let metadata = candidate.metadata() else { continue }
                found.append(metadata)
            }
        }
        return found
    }

    /// The classes named `name` that are `Wanted` (a base class's metatype): the one
    /// `NSClassFromString` finds for a module-qualified name, else every match of the search.
    static func classes<Wanted>(named name: String, as wanted: Wanted.Type) -> [Wanted] {
        // Unwrapped before the cast: `NSClassFromString(name) as? Wanted` compiled, in release
        // builds with Swift 6.3, to a metatype cast of the optional without a nil check, which
        // crashed on every name `NSClassFromString` does not know.
        if let found: AnyClass = NSClassFromString(name), let wanted = found as? Wanted { return [wanted] }
        return classes(named: name).compactMap { $0 as? Wanted }
    }

    /// The descriptor a type-metadata record points at: a relative pointer whose low bits say
    /// whether it is direct (0) or through a pointer (1); other kinds are Objective-C's.
    private static func typeDescriptor(at record: UnsafeRawPointer) -> UnsafeRawPointer? {
        let raw = record.loadUnaligned(as: Int32.self)
        let target = record + Int(raw & ~3)
        switch raw & 3 {
        case 0: return target
        case 1: return target.load(as: UnsafeRawPointer?.self)
        default: return nil
        }
    }

    /// A context descriptor as the Swift ABI lays it out: flags, then a relative pointer to
    /// the parent context, then (for modules and types) a relative pointer to the name, then
    /// (for types) one to the metadata access function.
    private struct TypeDescriptor {
        let address: UnsafeRawPointer
        let flags: UInt32

        init?(_ address: UnsafeRawPointer) {
            self.address = address
            flags = address.load(as: UInt32.self)
        }

        private var kind: UInt32 { flags & 0x1F }
        var isClass: Bool { kind == 16 }
        var isGeneric: Bool { flags & 0x80 != 0 }
        /// Modules and nominal types have names; extensions and anonymous (private) contexts do not.
        private var isNamed: Bool { kind == 0 || (16...18).contains(kind) }

        var name: UnsafePointer<CChar> {
            relative(at: 8).assumingMemoryBound(to: CChar.self)
        }

        func nameEquals(_ wanted: [UInt8]) -> Bool {
            let name = UnsafeRawPointer(self.name).assumingMemoryBound(to: UInt8.self)
            for (index, byte) in wanted.enumerated() where name[index] != byte { return false }
            return name[wanted.count] == 0
        }

        var parent: TypeDescriptor? {
            let raw = (address + 4).load(as: Int32.self)
            guard raw != 0 else { return nil }
            // A relative pointer whose low bit says it goes through a pointer.
            let target = address + 4 + Int(raw & ~1)
            let parent = raw & 1 == 0 ? target : target.load(as: UnsafeRawPointer?.self)
            return parent.flatMap(TypeDescriptor.init)
        }

        /// The names of the module and types the class is declared in, outermost first;
        /// private (anonymous) contexts are left out, as in the class's printed name.
        func enclosingNames() -> [[UInt8]]? {
            var names: [[UInt8]] = []
            var context = parent
            while let current = context {
                if current.isNamed {
                    if current.isGeneric { return nil }
                    names.append(Array(UnsafeRawBufferPointer(start: current.name, count: strlen(current.name))))
                } else if current.kind != 2 {
                    return nil   // an extension's types are named through the extended type
                }
                context = current.parent
            }
            return names.reversed()
        }

        /// The class, from the metadata access function (a non-generic type's takes the
        /// request, 0 for complete metadata, and returns the metadata first).
        func metadata() -> AnyClass? {
            guard (address + 12).load(as: Int32.self) != 0 else { return nil }
            typealias AccessFunction = @convention(c) (Int) -> UnsafeRawPointer?
            let function = unsafeBitCast(relative(at: 12), to: AccessFunction.self)
            guard let metadata = function(0) else { return nil }
            return unsafeBitCast(metadata, to: Any.Type.self) as? AnyClass
        }

        private func relative(at offset: Int) -> UnsafeRawPointer {
            address + offset + Int((address + offset).load(as: Int32.self))
        }
    }
}
