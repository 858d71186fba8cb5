/// A delete's preserved values (attributes marked `preservesValueInHistoryOnDeletion`) as one
/// binary property list, and back.
///
/// A property list holds strings, numbers, dates and data; UUIDs, URLs and decimals are kept as
/// strings and turned back by the attribute's type when read, so the tombstone a history fetch
/// returns holds the values the object had.
enum HistoryTombstone {
    static func encode(_ values: [String: Any]) throws -> [UInt8] {
        let plist = values.mapValues { value -> Any in
            switch value {
            case let uuid as UUID: uuid.uuidString
            case let url as URL: url.absoluteString
            case let decimal as Decimal: "\(decimal)"
            default: value
            }
        }
        return Array(try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0))
    }

    static func decode(_ bytes: [UInt8], entity: NSEntityDescription) -> [AnyHashable: Any]? {
        guard let plist = try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any] else { return nil }
        var values: [AnyHashable: Any] = [:]
        for (name, value) in plist {
            guard let text = value as? String else {
                values[name] = value
                continue
            }
            switch entity.attributesByName[name]?.attributeType {
            case .UUIDAttributeType?: values[name] = UUID(uuidString: text) ?? text
            case .URIAttributeType?: values[name] = URL(string: text) ?? text
            case .decimalAttributeType?: values[name] = Decimal(string: text) ?? text
            default: values[name] = text
            }
        }
        return values
    }
}
