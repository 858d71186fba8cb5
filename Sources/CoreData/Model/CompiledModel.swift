/// The compiled form of one model version (`Name.mom`), as our `momc` writes it: the element
/// tree of the version's `contents` file, parsed and checked at build time, stored as a binary
/// property list.
///
/// Keeping the tree rather than a second encoding of every description means one reader
/// (`ModelXMLReader`) builds models from source and compiled files alike, so the two can never
/// disagree; each element keeps its source line, so a problem still names it. A compiled
/// model is read with the same bounds as source XML: it is just a file.
///
/// A `.momd` folder holds one `.mom` per version and a `VersionInfo.plist` naming the current
/// one, as Xcode's model compiler lays it out.
enum CompiledModel {
    static let format = "PortableCoreData.CompiledModel"
    static let formatVersion = 1
    static let versionInfoFileName = "VersionInfo.plist"
    static let currentVersionKey = "NSManagedObjectModel_CurrentVersionName"
    static let versionHashesKey = "NSManagedObjectModel_VersionHashes"

    private enum Key: String, CodingKey {
        case format, formatVersion, root
        case name, line, attributes, children
    }

    /// The binary property list of `root`, encoded from typed values by `PropertyListEncoder`.
    /// `PropertyListSerialization` bridged the whole `[String: Any]` tree to `NSDictionary`
    /// and validated it first, a large share of a migrating open (which writes the store's model
    /// copy; BENCHMARKS.md). The bytes are the same binary property list, so `decode` reads both.
    static func encode(_ root: ModelXMLElement) throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        return try encoder.encode(EncodedDocument(root: root))
    }

    private struct EncodedDocument: Encodable {
        let root: ModelXMLElement

        func encode(to encoder: any Encoder) throws {
            var fields = encoder.container(keyedBy: Key.self)
            try fields.encode(CompiledModel.format, forKey: .format)
            try fields.encode(CompiledModel.formatVersion, forKey: .formatVersion)
            try fields.encode(EncodedElement(element: root), forKey: .root)
        }
    }

    private struct EncodedElement: Encodable {
        let element: ModelXMLElement

        func encode(to encoder: any Encoder) throws {
            var fields = encoder.container(keyedBy: Key.self)
            try fields.encode(element.name, forKey: .name)
            try fields.encode(element.line, forKey: .line)
            try fields.encode(element.attributes, forKey: .attributes)
            try fields.encode(element.children.map(EncodedElement.init), forKey: .children)
        }
    }

    /// The element tree stored in `data`, refused if it is not one we wrote or exceeds the
    /// bounds source XML is held to.
    static func decode(_ data: Data) throws(ModelXMLError) -> ModelXMLElement {
        let document = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        guard let document, document[Key.format.rawValue] as? String == format else {
            throw ModelXMLError(line: nil, "the file is not a compiled model (written by this package's momc)")
        }
        guard let version = document[Key.formatVersion.rawValue] as? Int, version == formatVersion else {
            throw ModelXMLError(line: nil, "the compiled model has format version \(document[Key.formatVersion.rawValue] ?? "none"); this build reads \(formatVersion)")
        }
        var count = 0
        func element(_ value: Any?, depth: Int) throws(ModelXMLError) -> ModelXMLElement {
            count += 1
            guard count <= ModelXMLTreeBuilder.maximumElementCount, depth < ModelXMLTreeBuilder.maximumDepth else {
                throw ModelXMLError(line: nil, "the compiled model is nested too deep or has too many elements")
            }
            guard let fields = value as? [String: Any], let name = fields[Key.name.rawValue] as? String,
                  let line = fields[Key.line.rawValue] as? Int, let attributes = fields[Key.attributes.rawValue] as? [String: String],
                  let children = fields[Key.children.rawValue] as? [Any] else {
                throw ModelXMLError(line: nil, "the compiled model has a malformed element")
            }
            let decoded = ModelXMLElement(name: name, attributes: attributes, line: line)
            for child in children { decoded.children.append(try element(child, depth: depth + 1)) }
            return decoded
        }
        return try element(document[Key.root.rawValue], depth: 0)
    }
}
