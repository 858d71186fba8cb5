/// A typed value an entity stores, with its default and validation rules.
open class NSAttributeDescription: NSPropertyDescription, @unchecked Sendable {
    /// What the attribute holds and how it is stored. Read for every column of every row a
    /// store decodes, and fixed once the model is in use: it skips the runtime's exclusivity
    /// check on each read (BENCHMARKS.md).
    @exclusivity(unchecked) public var attributeType: NSAttributeType = .undefinedAttributeType { willSet { requireEditable("attributeType") } }
    /// The value a new object starts with; nil for none.
    public var defaultValue: Any? = nil { willSet { requireEditable("defaultValue") } }
    /// Apple keeps large blobs beside the store; we accept the flag and keep them in the row.
    public var allowsExternalBinaryDataStorage: Bool = false { willSet { requireEditable("allowsExternalBinaryDataStorage") } }
    /// Keep the value in a delete's history record (`NSPersistentHistoryChange.tombstone`), so
    /// that a process merging the history later can still tell which object went (its unique
    /// key, say) after the row is gone. Xcode writes it as `preserveAfterDeletion="YES"`.
    public var preservesValueInHistoryOnDeletion: Bool = false { willSet { requireEditable("preservesValueInHistoryOnDeletion") } }
    /// The name a `ValueTransformer` is registered under, for `.transformableAttributeType`.
    public var valueTransformerName: String? = nil { willSet { requireEditable("valueTransformerName") } }
    /// The class Xcode's model names for a transformable value; kept and compared, not used to check values.
    public var attributeValueClassName: String? = nil { willSet { requireEditable("attributeValueClassName") } }

    /// An attribute with no name or type yet.
    public override init() { super.init() }

    /// A convenience for building models in code.
    ///
    /// For example:
    /// ```swift
    /// let name = NSAttributeDescription(name: "name", type: .stringAttributeType)
    /// ```
    public convenience init(name: String, type: NSAttributeType, optional: Bool = true, defaultValue: Any? = nil) {
        self.init()
        self.name = name
        self.attributeType = type
        self.isOptional = optional
        self.defaultValue = defaultValue
    }

    override func copyProperty() -> NSPropertyDescription {
        let copy = NSAttributeDescription()
        copyAttribute(into: copy)
        return copy
    }

    /// Copies what every attribute has, for subclasses' `copyProperty`.
    func copyAttribute(into copy: NSAttributeDescription) {
        copyCommon(into: copy)
        copy.attributeType = attributeType
        copy.defaultValue = defaultValue
        copy.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        copy.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        copy.valueTransformerName = valueTransformerName
        copy.attributeValueClassName = attributeValueClassName
    }
}
