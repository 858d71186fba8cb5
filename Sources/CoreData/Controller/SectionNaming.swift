/// How a controller names the section of an object: the value at `sectionNameKeyPath`,
/// which may go through to-one relationships (`"team.zone"`).
struct SectionNaming {
    let keyPath: String?

    /// The section name of `object`: its value's text, or "" for nil (and for no key path).
    func name(for object: NSManagedObject) -> String {
        guard let keyPath else { return "" }
        switch object.value(forKeyPath: keyPath) {
        case nil, is NSNull: return ""
        case let text as String: return text
        case let number as NSNumber: return number.stringValue
        case let value?: return "\(value)"
        }
    }
}
