/// How a controller names the section of an object: the value at `sectionNameKeyPath`,
/// which may go through to-one relationships (`"team.zone"`).
struct SectionNaming {
    private let path: ResultKeyPath?

    /// `entity` is the request's, whose stored attributes are read by ordinal.
    init(keyPath: String?, entity: NSEntityDescription? = nil) {
        path = keyPath.map { ResultKeyPath($0, entity: entity) }
    }

    var keyPath: String? { path?.keyPath }

    /// The same key path bound to the attributes of `entity`.
    func bound(to entity: NSEntityDescription?) -> SectionNaming {
        SectionNaming(keyPath: keyPath, entity: entity)
    }

    /// The section name of `object`: its value's text, or "" for nil (and for no key path);
    /// `row` is its read-ahead row (`ResultKeyPath.readAheadRow(of:)`).
    func name(for object: NSManagedObject, readAhead row: RowSnapshot?) -> String {
        guard let path else { return "" }
        if case .string(let text) = path.queryValue(of: object, readAhead: row) { return text }
        switch object.valueWithoutFiring(alongKeys: path.keys[...]) {
        case nil, is NSNull: return ""
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        case let value?: return "\(value)"
        }
    }

    /// The section name of `object` whose sort key `key` was just read by `ordering`. Apple asks
    /// a sectioned request to sort by the section key path first; when it does, the name is the
    /// first sort value's text, and the key path is not read a second time.
    func name(for object: NSManagedObject, readAhead row: RowSnapshot?, sortKey key: ResultSortKey, ordering: ResultOrdering) -> String {
        if let keyPath = path?.keyPath, ordering.firstKeyPath == keyPath, case .string(let text)? = key.values.first {
            return text
        }
        return name(for: object, readAhead: row)
    }
}
