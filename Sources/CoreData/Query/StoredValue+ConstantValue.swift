extension ConstantValue {
    /// The query value of a stored attribute value, without the Foundation form in between:
    /// how sort keys and section names are read for every object a controller holds.
    init(stored: StoredValue?, for attribute: NSAttributeDescription) {
        switch stored {
        case nil: self = .null
        case .integer(let value)?: self = attribute.attributeType == .booleanAttributeType ? .bool(value != 0) : .int(value)
        case .real(let value)?: self = .double(value)
        case .text(let value)?: self = .string(value)
        case .date(let value)?: self = .date(value)
        case .data(let value)?: self = .data(value)
        case .decimal(let value)?: self = .decimal(value)
        case .uuid(let value)?: self = .uuid(value)
        case .url(let value)?: self = .url(value)
        case .objectID(let value)?: self = .object(OpaqueValue(value))
        case .other(let value)?: self = ConstantValue(any: value)
        }
    }
}
