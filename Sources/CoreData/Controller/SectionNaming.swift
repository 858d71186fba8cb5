/// How a controller names the section of an object: the value at `sectionNameKeyPath`,
/// which may go through to-one relationships (`"team.zone"`).
struct SectionNaming {
    let keyPath: String?
    /// `keyPath` split at its dots once, as it is read for every object.
    private let keys: [String]

    init(keyPath: String?) {
        self.keyPath = keyPath
        keys = keyPath?.split(separator: ".").map(String.init) ?? []
    }

    /// The section name of `object`: its value's text, or "" for nil (and for no key path).
    func name(for object: NSManagedObject) -> String {
        guard keyPath != nil else { return "" }
        if case .string(let text) = object.queryValueWithoutFiring(alongKeys: keys[...]) { return text }
        switch object.valueWithoutFiring(alongKeys: keys[...]) {
        case nil, is NSNull: return ""
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        case let value?: return "\(value)"
        }
    }
}
