/// Loading a model from the files Xcode's model editor writes, or from their compiled form.
extension NSManagedObjectModel {
    /// A model read from a compiled `Name.momd` folder (its current version is used) or
    /// `Name.mom` file, as the `CoreDataModelCompiler` plugin writes them, or from Xcode's
    /// source: a versioned `Name.xcdatamodeld` folder, a `Name.xcdatamodel` folder, or the
    /// `contents` file in one. Returns nil when the file is missing, unreadable or not a valid
    /// model; use `load(contentsOf:)` to learn why.
    ///
    /// For example:
    /// ```swift
    /// let url = Bundle.module.url(forResource: "Model", withExtension: "momd")!
    /// let model = NSManagedObjectModel(contentsOf: url)
    /// ```
    public convenience init?(contentsOf url: URL) {
        guard let contents = try? Self.readContents(of: url) else { return nil }
        self.init()
        install(contents, from: url)
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
        let model = NSManagedObjectModel()
        model.install(try readContents(of: url), from: url)
        return model
    }

    private static func readContents(of url: URL) throws -> ModelXMLReader.Contents {
        let file = try modelFileURL(for: url)
        return try ModelXMLReader.read(contentsOf: file, as: file.pathExtension == "mom" ? CompiledModel.decode : ModelXMLTreeBuilder.parse)
    }

    private func install(_ contents: ModelXMLReader.Contents, from url: URL) {
        let versioned = ["xcdatamodeld", "momd"]
        versionBundleURL = versioned.contains(url.pathExtension) ? url
            : [url.deletingLastPathComponent(), url.deletingLastPathComponent().deletingLastPathComponent()]
                .first { versioned.contains($0.pathExtension) }
        entities = contents.entities
        for (name, request) in contents.fetchRequestTemplates {
            setFetchRequestTemplate(request, forName: name)
        }
        versionIdentifiers = contents.versionIdentifiers
        configurationMembers = contents.configurations
    }

    /// Every version in the versioned model bundle (`.xcdatamodeld` or `.momd`) at `bundle`,
    /// by version name; the versions that fail to load are left out.
    static func versions(in bundle: URL) -> [String: NSManagedObjectModel] {
        let suffix = bundle.pathExtension == "momd" ? ".mom" : ".xcdatamodel"
        var versions: [String: NSManagedObjectModel] = [:]
        for file in (try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? [] where file.hasSuffix(suffix) {
            versions[String(file.dropLast(suffix.count))] = try? load(contentsOf: bundle.appendingPathComponent(file))
        }
        return versions
    }

    /// The one file `url` stands for: a compiled `.mom`, or a source `contents` XML file.
    static func modelFileURL(for url: URL) throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ModelXMLReader.loadError(code: CocoaError.fileReadNoSuchFile.rawValue, file: url, line: nil, problem: "no such file or folder")
        }
        guard isDirectory.boolValue else { return url }
        switch url.pathExtension {
        case "xcdatamodeld":
            return try modelFileURL(for: currentVersionURL(in: url))
        case "momd":
            return try currentCompiledVersionURL(in: url)
        default:
            let contents = url.appendingPathComponent("contents", isDirectory: false)
            guard FileManager.default.fileExists(atPath: contents.path) else {
                throw ModelXMLReader.loadError(code: CocoaError.fileReadNoSuchFile.rawValue, file: url, line: nil,
                                               problem: "the folder has no 'contents' model file")
            }
            return contents
        }
    }

    /// The `.mom` that `VersionInfo.plist` names current, or the only one when that file is absent.
    private static func currentCompiledVersionURL(in bundle: URL) throws -> URL {
        let info = bundle.appendingPathComponent(CompiledModel.versionInfoFileName, isDirectory: false)
        if let data = FileManager.default.contents(atPath: info.path) {
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
            guard let name = (plist as? [String: Any])?[CompiledModel.currentVersionKey] as? String, isPlainFileName(name) else {
                throw ModelXMLReader.loadError(code: CocoaError.fileReadCorruptFile.rawValue, file: info, line: nil,
                                               problem: "it does not name the current version in \(CompiledModel.currentVersionKey)")
            }
            return bundle.appendingPathComponent(name + ".mom", isDirectory: false)
        }
        return try onlyVersion(in: bundle, withExtension: "mom", marker: CompiledModel.versionInfoFileName)
    }

    /// The version `.xccurrentversion` names, or the only version when that file is absent.
    static func currentVersionURL(in bundle: URL) throws -> URL {
        let marker = bundle.appendingPathComponent(".xccurrentversion", isDirectory: false)
        if let data = FileManager.default.contents(atPath: marker.path) {
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil)
            guard var name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String, isPlainFileName(name) else {
                throw ModelXMLReader.loadError(code: CocoaError.fileReadCorruptFile.rawValue, file: marker, line: nil,
                                               problem: "it does not name the current version in _XCCurrentVersionName")
            }
            if !name.hasSuffix(".xcdatamodel") { name += ".xcdatamodel" }
            return bundle.appendingPathComponent(name, isDirectory: true)
        }
        return try onlyVersion(in: bundle, withExtension: "xcdatamodel", marker: ".xccurrentversion")
    }

    /// A version file name must stay inside its bundle.
    private static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && name != ".." && name != "."
    }

    /// The bundle's only `*.<pathExtension>` version, when no marker file names the current one.
    private static func onlyVersion(in bundle: URL, withExtension pathExtension: String, marker: String) throws -> URL {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: bundle.path)) ?? [])
            .filter { $0.hasSuffix("." + pathExtension) }
        guard versions.count == 1, let only = versions.first else {
            let problem = versions.isEmpty ? "it holds no .\(pathExtension) version"
                : "it holds \(versions.count) versions and no \(marker) naming the current one"
            throw ModelXMLReader.loadError(code: CocoaError.fileReadCorruptFile.rawValue, file: bundle, line: nil, problem: problem)
        }
        return bundle.appendingPathComponent(only, isDirectory: pathExtension == "xcdatamodel")
    }
}
