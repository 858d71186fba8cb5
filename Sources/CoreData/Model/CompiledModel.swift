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

    private enum Key {
        static let format = "format", formatVersion = "formatVersion", root = "root"
        static let name = "name", line = "line", attributes = "attributes", children = "children"
    }

    /// The binary property list of `root`.
    static func encode(_ root: ModelXMLElement) throws -> Data {
        func plist(_ element: ModelXMLElement) -> [String: Any] {
            [Key.name: element.name, Key.line: element.line, Key.attributes: element.attributes,
             Key.children: element.children.map(plist)]
        }
        let document: [String: Any] = [Key.format: format, Key.formatVersion: formatVersion, Key.root: plist(root)]
        return try PropertyListSerialization.data(fromPropertyList: document, format: .binary, options: 0)
    }

    /// The element tree stored in `data`, refused if it is not one we wrote or exceeds the
    /// bounds source XML is held to.
    static func decode(_ data: Data) throws(ModelXMLError) -> ModelXMLElement {
        let document = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        guard let document, document[Key.format] as? String == format else {
            throw ModelXMLError(line: nil, "the file is not a compiled model (written by this package's momc)")
        }
        guard let version = document[Key.formatVersion] as? Int, version == formatVersion else {
            throw ModelXMLError(line: nil, "the compiled model has format version \(document[Key.formatVersion] ?? "none"); this build reads \(formatVersion)")
        }
        var count = 0
        func element(_ value: Any?, depth: Int) throws(ModelXMLError) -> ModelXMLElement {
            count += 1
            guard count <= ModelXMLTreeBuilder.maximumElementCount, depth < ModelXMLTreeBuilder.maximumDepth else {
                throw ModelXMLError(line: nil, "the compiled model is nested too deep or has too many elements")
            }
            guard let fields = value as? [String: Any], let name = fields[Key.name] as? String,
                  let line = fields[Key.line] as? Int, let attributes = fields[Key.attributes] as? [String: String],
                  let children = fields[Key.children] as? [Any] else {
                throw ModelXMLError(line: nil, "the compiled model has a malformed element")
            }
            let decoded = ModelXMLElement(name: name, attributes: attributes, line: line)
            for child in children { decoded.children.append(try element(child, depth: depth + 1)) }
            return decoded
        }
        return try element(document[Key.root], depth: 0)
    }
}
