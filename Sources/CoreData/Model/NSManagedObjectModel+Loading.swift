/// Loading a model from the files Xcode's model editor writes.
extension NSManagedObjectModel {
    /// A model read from an Xcode data model: a versioned `Name.xcdatamodeld` folder (its
    /// current version is used), a `Name.xcdatamodel` folder, or the `contents` file in one.
    /// Returns nil when the file is missing, unreadable or not a valid model; use
    /// `load(contentsOf:)` to learn why.
    ///
    /// For example:
    /// ```swift
    /// let url = Bundle.module.url(forResource: "HitList", withExtension: "xcdatamodeld")!
    /// let model = NSManagedObjectModel(contentsOf: url)
    /// ```
    public convenience init?(contentsOf url: URL) {
        guard let contents = try? ModelXMLReader.read(contentsOf: Self.contentsFileURL(for: url)) else { return nil }
        self.init()
        install(contents)
    }

    /// Like `init?(contentsOf:)`, but throws an `NSError` in `NSCocoaErrorDomain` naming the file,
    /// the line and the problem (code 260 for a missing file, 259 for an invalid one).
    ///
    /// For example:
    /// ```swift
    /// do {
    ///     let model = try NSManagedObjectModel.load(contentsOf: url)
    /// } catch {
    ///     print(error.localizedDescription) // "Cannot load the data model at .../contents:12: ..."
    /// }
    /// ```
    public static func load(contentsOf url: URL) throws -> NSManagedObjectModel {
        let contents = try ModelXMLReader.read(contentsOf: contentsFileURL(for: url))
        let model = NSManagedObjectModel()
        model.install(contents)
        return model
    }

    private func install(_ contents: ModelXMLReader.Contents) {
        entities = contents.entities
        for (name, request) in contents.fetchRequestTemplates {
            setFetchRequestTemplate(request, forName: name)
        }
        versionIdentifiers = contents.versionIdentifiers
    }

    /// The `contents` XML file that `url` stands for.
    static func contentsFileURL(for url: URL) throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelXMLReader.loadError(code: CocoaError.fileReadNoSuchFile.rawValue, file: url, line: nil, problem: "no such file or folder")
        }
        guard isDirectory.boolValue else {
            if url.pathExtension == "mom" { throw compiledModelError(url) }
            return url
        }
        switch url.pathExtension {
        case "xcdatamodeld":
            return try contentsFileURL(for: currentVersionURL(in: url))
        case "momd":
            throw compiledModelError(url)
        default:
            let contents = url.appendingPathComponent("contents", isDirectory: false)
            guard FileManager.default.fileExists(atPath: contents.path) else {
                throw ModelXMLReader.loadError(code: CocoaError.fileReadNoSuchFile.rawValue, file: url, line: nil,
                                               problem: "the folder has no 'contents' model file")
            }
            return contents
        }
    }

    /// The version `.xccurrentversion` names, or the only version when that file is absent.
    private static func currentVersionURL(in bundle: URL) throws -> URL {
        let marker = bundle.appendingPathComponent(".xccurrentversion", isDirectory: false)
        if let data = FileManager.default.contents(atPath: marker.path) {
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
            guard var name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String,
                  !name.isEmpty, !name.contains("/"), name != "..", name != "."
            else {
                throw ModelXMLReader.loadError(code: CocoaError.fileReadCorruptFile.rawValue, file: marker, line: nil,
                                               problem: "it does not name the current version in _XCCurrentVersionName")
            }
            if !name.hasSuffix(".xcdatamodel") { name += ".xcdatamodel" }
            return bundle.appendingPathComponent(name, isDirectory: true)
        }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }
        guard versions.count == 1, let only = versions.first else {
            let problem = versions.isEmpty ? "it holds no .xcdatamodel version"
                : "it holds \(versions.count) versions and no .xccurrentversion naming the current one"
            throw ModelXMLReader.loadError(code: CocoaError.fileReadCorruptFile.rawValue, file: bundle, line: nil, problem: problem)
        }
        return bundle.appendingPathComponent(only, isDirectory: true)
    }

    private static func compiledModelError(_ url: URL) -> NSError {
        ModelXMLReader.loadError(code: CocoaError.fileReadCorruptFile.rawValue, file: url, line: nil,
                                 problem: "compiled models (.mom/.momd) cannot be read on this platform; ship the .xcdatamodeld instead")
    }
}
