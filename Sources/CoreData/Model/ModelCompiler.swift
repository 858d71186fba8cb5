/// Compiles Xcode's source models into the form apps ship, as Xcode's `momc` does: the engine
/// of the `momc` tool that the `CoreDataModelCompiler` build-tool plugin runs. Not for apps.
///
/// For example:
/// ```swift
/// try ModelCompiler.compile(URL(fileURLWithPath: "Model.xcdatamodeld"), into: URL(fileURLWithPath: "Model.momd"))
/// ```
@_spi(ModelCompiler)
public enum ModelCompiler {
    /// Compiles `source` into `destination`: a `.xcdatamodeld` into a `.momd` folder holding one
    /// `.mom` per version and `VersionInfo.plist`, or one `.xcdatamodel` into a `.mom` file.
    /// Every version is read in full first, so a broken model fails the build with its file
    /// and line (an `NSError` in `NSCocoaErrorDomain`), and nothing is written.
    ///
    /// `moduleName` is the module the model's classes live in: a class Xcode's model editor
    /// marks "Current Product Module" (`representedClassName=".Animal"`) is compiled as
    /// `Module.Animal`, as Xcode's compiler does, so `NSClassFromString` finds it.
    public static func compile(_ source: URL, into destination: URL, moduleName: String? = nil) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ModelXMLReader.loadError(code: CocoaError.fileReadNoSuchFile.rawValue, file: source, line: nil,
                                           problem: "no such model folder")
        }
        guard source.pathExtension == "xcdatamodeld" else {
            let compiled = try compileVersion(source, moduleName: moduleName)
            try replace(destination) { try compiled.data.write(to: destination) }
            return
        }
        let current = try NSManagedObjectModel.currentVersionURL(in: source)
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: source.path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        var files: [(name: String, data: Data)] = []
        var hashes: [String: [String: Data]] = [:]
        for version in versions {
            let name = String(version.dropLast(".xcdatamodel".count))
            let compiled = try compileVersion(source.appendingPathComponent(version, isDirectory: true), moduleName: moduleName)
            files.append((name + ".mom", compiled.data))
            hashes[name] = compiled.hashes
        }
        let info: [String: Any] = [
            CompiledModel.currentVersionKey: current.deletingPathExtension().lastPathComponent,
            CompiledModel.versionHashesKey: hashes,
        ]
        files.append((CompiledModel.versionInfoFileName,
                      try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)))
        try replace(destination) {
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            for file in files { try file.data.write(to: destination.appendingPathComponent(file.name)) }
        }
    }

    /// One version's compiled file and its entities' version hashes.
    private static func compileVersion(_ version: URL, moduleName: String?) throws -> (data: Data, hashes: [String: Data]) {
        let contentsURL = try NSManagedObjectModel.modelFileURL(for: version)
        var root = try ModelXMLReader.tree(contentsOf: contentsURL, as: ModelXMLTreeBuilder.parse)
        if let moduleName { root = qualifyingCurrentModuleClasses(in: root, with: moduleName) }
        let contents = try ModelXMLReader.contents(of: root, in: contentsURL)
        return (try CompiledModel.encode(root), NSManagedObjectModel(entities: contents.entities).entityVersionHashesByName)
    }

    /// `root` with each entity's `.Class` (the current module's class) written `Module.Class`.
    private static func qualifyingCurrentModuleClasses(in root: ModelXMLElement, with moduleName: String) -> ModelXMLElement {
        let copy = ModelXMLElement(name: root.name, attributes: root.attributes, line: root.line)
        copy.children = root.children.map { child in
            guard child.name == "entity", let className = child["representedClassName"], className.hasPrefix("."), className.count > 1 else { return child }
            var attributes = child.attributes
            attributes["representedClassName"] = moduleName + className
            let entity = ModelXMLElement(name: child.name, attributes: attributes, line: child.line)
            entity.children = child.children
            return entity
        }
        return copy
    }

    /// Removes what `destination` holds, then writes it anew; only when what is there is a
    /// compiled model (a `.mom` file, or a `.momd` folder of `.mom` files and
    /// `VersionInfo.plist`), so a wrong output path never costs anything else.
    private static func replace(_ destination: URL, write: () throws -> Void) throws {
        // Not following a link: `attributesOfItem` describes the link itself.
        switch (try? FileManager.default.attributesOfItem(atPath: destination.path))?[.type] as? FileAttributeType {
        case nil: break
        case .typeRegular? where isCompiledModelFile(destination):
            try FileManager.default.removeItem(at: destination)
        case .typeDirectory?:
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: destination.path)) ?? []
            let ours = entries.allSatisfy {
                $0 == CompiledModel.versionInfoFileName || ($0.hasSuffix(".mom") && isCompiledModelFile(destination.appendingPathComponent($0)))
            }
            guard ours else { throw notACompiledModel(destination) }
            try FileManager.default.removeItem(at: destination)
        default:
            throw notACompiledModel(destination)
        }
        try write()
    }

    private static func isCompiledModelFile(_ url: URL) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType == .typeRegular
            && (try? Data(contentsOf: url)).map { (try? CompiledModel.decode($0)) != nil } == true
    }

    private static func notACompiledModel(_ destination: URL) -> NSError {
        CoreDataError.make(NSFileWriteFileExistsError,
                           "\(destination.path) is there and is not a compiled model; it was left untouched",
                           [NSURLErrorKey: destination, NSFilePathErrorKey: destination.path])
    }
}
