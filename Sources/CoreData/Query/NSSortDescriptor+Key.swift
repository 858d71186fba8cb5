/// Key-based sort descriptors on Linux, where Foundation keeps only typed key paths.
///
/// Our descriptor is a Foundation one whose key path is `\(any KeyValueReadable).[sortKey:]`:
/// the subscript's index carries the key and selector, so the descriptor survives Foundation's
/// own `reversedSortDescriptor` and `copy()`, and `key` reads the index back through a probe.
extension NSSortDescriptor {
    /// Orders by the value at `key`, which may run through to-one relationships; compared with
    /// `compare:`.
    ///
    /// For example:
    /// ```swift
    /// NSSortDescriptor(key: "bucket.name", ascending: true)
    /// ```
    public convenience init(key: String?, ascending: Bool) {
        self.init(key: key, ascending: ascending, selector: nil)
    }

    /// `selector` is one of `compare:`, `caseInsensitiveCompare:`, `localizedCompare:`,
    /// `localizedCaseInsensitiveCompare:` or `localizedStandardCompare:` (numeric-aware:
    /// "item 2" before "item 10"); another name makes the fetch throw.
    public convenience init(key: String?, ascending: Bool, selector: Selector?) {
        let specification = SortKey(key: key ?? "", selector: selector?.name ?? SortSelector.compare.rawValue)
        let comparison = SortSelector(rawValue: specification.selector) ?? .compare
        self.init(keyPath: \(any KeyValueReadable).[sortKey: specification], ascending: ascending, comparator: { lhs, rhs in
            comparison.compare(ConstantValue(any: (lhs as? SortOperand)?.value), ConstantValue(any: (rhs as? SortOperand)?.value))
        })
    }

    /// Sorts by `comparator` applied to the two values at `key`. Such a sort cannot run in
    /// SQLite; the fetch sorts in memory or throws, depending on the store.
    public convenience init(key: String?, ascending: Bool, comparator: @escaping Comparator) {
        let specification = SortKey(key: key ?? "", selector: "")
        self.init(keyPath: \(any KeyValueReadable).[sortKey: specification], ascending: ascending, comparator: { lhs, rhs in
            comparator((lhs as? SortOperand)?.value as Any, (rhs as? SortOperand)?.value as Any)
        })
    }

    /// A typed key path into a managed object subclass, named through the model's mapping.
    ///
    /// For example:
    /// ```swift
    /// NSSortDescriptor(keyPath: \Walk.date, ascending: false)
    /// ```
    public convenience init<Root: NSManagedObject, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool) {
        self.init(key: NSManagedObject.propertyName(for: keyPath) ?? "\(keyPath)", ascending: ascending)
    }

    /// Wins over Foundation's `init(keyPath:ascending:)` for `Comparable` values of managed
    /// objects, which would otherwise be ambiguous.
    public convenience init<Root: NSManagedObject, Value: Comparable>(keyPath: KeyPath<Root, Value>, ascending: Bool) {
        self.init(key: NSManagedObject.propertyName(for: keyPath) ?? "\(keyPath)", ascending: ascending)
    }

    /// The Swift `SortDescriptor` of a managed object type as a key-based descriptor. Only a
    /// key path the model can name is usable. Strings compare with `compare:`: Linux offers
    /// only the `.lexical` string comparator and hides its options.
    public convenience init<Compared: NSManagedObject>(_ sortDescriptor: SortDescriptor<Compared>) {
        let name = sortDescriptor.keyPath.flatMap { NSManagedObject.propertyName(for: $0) }
        self.init(key: name ?? "", ascending: sortDescriptor.order == .forward)
    }

    /// The key path this descriptor sorts by; nil for descriptors made from Swift key paths
    /// by Foundation itself.
    public var key: String? {
        sortKey?.key
    }

    /// The comparison method's name; nil for comparator-based and Foundation-made descriptors.
    public var selector: Selector? {
        guard let selector = sortKey?.selector, !selector.isEmpty else { return nil }
        return Selector(selector)
    }

    /// What `init(key:...)` stored in the key path, read back through a probe object.
    var sortKey: SortKey? {
        guard let path = keyPath as? KeyPath<any KeyValueReadable, SortOperand> else { return nil }
        return (SortKeyProbe() as any KeyValueReadable)[keyPath: path].sortKey
    }
}

/// The key and selector of a key-based sort descriptor, kept as the index of its key path.
struct SortKey: Hashable, Sendable {
    let key: String
    /// Apple's selector name, or empty for a comparator-based descriptor.
    let selector: String
}

/// What the key path yields: the value at the key, with the key it came from.
struct SortOperand: @unchecked Sendable {
    let sortKey: SortKey
    let value: Any?
}

extension KeyValueReadable {
    subscript(sortKey sortKey: SortKey) -> SortOperand {
        let components = sortKey.key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let value = try? KeyPathReader.follow(components, from: .single(self))
        if case .single(let single)? = value { return SortOperand(sortKey: sortKey, value: single) }
        return SortOperand(sortKey: sortKey, value: nil)
    }
}

private struct SortKeyProbe: KeyValueReadable {
    func readValue(forKey key: String) -> Any? { nil }
}
