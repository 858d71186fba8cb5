/// The binary store's file: one binary property list holding the store's metadata, the last
/// reference handed out per inheritance hierarchy, and every object as its entity's name, its
/// reference object and its values by property name (attributes in `BinaryStoreValueCoding`'s
/// form, a to-one as `[entity name, reference]`, a to-many as a list of those).
///
/// The layout is ours, not Apple's: neither framework reads the other's binary stores.
struct BinaryStoreArchive {
    /// One object of the file.
    struct Object {
        let entityName: String
        let reference: Any
        let values: [String: Any]
    }

    private static let formatName = "PortableCoreData.BinaryStore"
    private static let formatVersion = 1

    var metadata: [String: Any]
    var lastReferences: [String: Int64]
    var objects: [Object]

    init(metadata: [String: Any], lastReferences: [String: Int64], objects: [Object]) {
        // Metadata a caller set that a property list cannot hold is not kept.
        self.metadata = metadata.filter { PropertyListSerialization.propertyList($0.value, isValidFor: .binary) }
        self.lastReferences = lastReferences
        self.objects = objects
    }

    /// Reads a file's bytes; nil when they are not a binary store of this format.
    init?(data: Data) {
        guard let root = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
              root["format"] as? String == Self.formatName, (root["formatVersion"] as? NSNumber)?.intValue == Self.formatVersion,
              let metadata = root["metadata"] as? [String: Any], let lastReferences = root["lastReferences"] as? [String: NSNumber],
              let objects = root["objects"] as? [[String: Any]] else { return nil }
        var decoded: [Object] = []
        for object in objects {
            guard let entityName = object["entity"] as? String, let reference = object["reference"],
                  let values = object["values"] as? [String: Any] else { return nil }
            decoded.append(Object(entityName: entityName, reference: reference, values: values))
        }
        self.init(metadata: metadata, lastReferences: lastReferences.mapValues(\.int64Value), objects: decoded)
    }

    func encoded() throws -> Data {
        let root: [String: Any] = [
            "format": Self.formatName,
            "formatVersion": Self.formatVersion,
            "metadata": metadata,
            "lastReferences": lastReferences.mapValues { NSNumber(value: $0) },
            "objects": objects.map { ["entity": $0.entityName, "reference": $0.reference, "values": $0.values] as [String: Any] },
        ]
        return try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
    }
}
