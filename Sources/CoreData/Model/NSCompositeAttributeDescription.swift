/// An attribute made of other attributes (its `elements`), read and written as one dictionary
/// keyed by the elements' names, and stored as one column per element, so fetches filter and
/// sort on `address.city` like on any column. Elements may themselves be composite.
///
/// For example:
/// ```swift
/// let address = NSCompositeAttributeDescription()
/// address.name = "address"
/// address.elements = [
///     NSAttributeDescription(name: "street", type: .stringAttributeType),
///     NSAttributeDescription(name: "city", type: .stringAttributeType),
/// ]
/// person.setValue(["street": "1 Infinite Loop", "city": "Cupertino"], forKey: "address")
/// ```
open class NSCompositeAttributeDescription: NSAttributeDescription, @unchecked Sendable {
    /// The attributes the composite is made of; each becomes a column of its own.
    public var elements: [NSAttributeDescription] = [] {
        willSet { requireEditable("elements") }
        didSet { PropertyIndex.noteEdit() }
    }

    /// An empty composite; add its `elements`.
    public override init() {
        super.init()
        attributeType = .compositeAttributeType
    }

    override func copyProperty() -> NSPropertyDescription {
        let copy = NSCompositeAttributeDescription()
        copyAttribute(into: copy)
        copy.elements = elements.map { $0.copyProperty() as! NSAttributeDescription }
        return copy
    }

    /// The element called `name`.
    func element(named name: String) -> NSAttributeDescription? {
        elements.first { $0.name == name }
    }

    /// Every non-composite element with the names leading to it from this attribute, in
    /// order: one stored column each.
    var leaves: [(path: [String], attribute: NSAttributeDescription)] {
        elements.flatMap { element in
            guard let nested = element as? NSCompositeAttributeDescription else { return [([element.name], element)] }
            return nested.leaves.map { ([element.name] + $0.path, $0.attribute) }
        }
    }

    /// A dictionary value in the form key-value coding returns: each element's value
    /// normalised as that element would store it, unknown keys dropped; nil when no element
    /// has a value.
    func normalized(_ value: Any?) -> [String: Any]? {
        guard let dictionary = unwrapOptional(value) as? [String: Any] ?? (unwrapOptional(value) as? NSDictionary).map(Self.stringKeyed) else {
            return nil
        }
        var result: [String: Any] = [:]
        for element in elements {
            let elementValue: Any?
            if let nested = element as? NSCompositeAttributeDescription {
                elementValue = nested.normalized(dictionary[element.name])
            } else {
                elementValue = StoredValue(dictionary[element.name], for: element).map { $0.foundationValue(for: element) }
            }
            if let elementValue { result[element.name] = elementValue }
        }
        return result.isEmpty ? nil : result
    }

    /// The value at `path` inside a composite's dictionary.
    static func value(in dictionary: [String: Any], at path: ArraySlice<String>) -> Any? {
        guard let first = path.first else { return dictionary }
        let value = dictionary[first]
        guard path.count > 1 else { return value }
        return (value as? [String: Any]).flatMap { Self.value(in: $0, at: path.dropFirst()) }
    }

    /// Sets the value at `path` inside a composite's dictionary, making nested levels as needed.
    static func set(_ value: Any, at path: ArraySlice<String>, in dictionary: inout [String: Any]) {
        guard let first = path.first else { return }
        guard path.count > 1 else {
            dictionary[first] = value
            return
        }
        var nested = dictionary[first] as? [String: Any] ?? [:]
        set(value, at: path.dropFirst(), in: &nested)
        dictionary[first] = nested
    }

    private static func stringKeyed(_ dictionary: NSDictionary) -> [String: Any] {
        var result: [String: Any] = [:]
        for case let (key as String, value) in dictionary { result[key] = value }
        return result
    }
}
