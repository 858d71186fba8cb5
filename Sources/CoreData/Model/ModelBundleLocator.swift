/// Finds data model files where SwiftPM and Xcode put them.
///
/// On Linux a package's resources are copied into `<Package>_<Target>.resources` folders next
/// to the executable (Xcode and SwiftPM on macOS use `.bundle`, with `Contents/Resources`). The
/// model arrives compiled as `.momd` when the target uses the `CoreDataModelCompiler` plugin,
/// or as the `.xcdatamodeld` source folder when it copies it. The search stays shallow: those
/// folders, never a whole tree.
enum ModelBundleLocator {
    /// Folder extensions that hold a model, in the order a name is looked for when a folder
    /// holds several forms of it (a target that copies its source and compiles it too).
    static let modelExtensions = ["xcdatamodeld", "xcdatamodel", "momd"]

    /// Every model in `directory`, its `Resources/` and `Contents/Resources/` folders, and the
    /// `*.resources` and `*.bundle` folders directly inside it. When one model appears in
    /// several forms (`Name.xcdatamodeld` and `Name.momd`), only the most readable is listed,
    /// so merging the results never sees the same entities twice.
    static func modelURLs(in directory: URL) -> [URL] {
        var found: [URL] = []
        var seenNames = Set<String>()
        for folder in searchFolders(in: directory) {
            let models = entries(of: folder, withExtensionIn: modelExtensions).filter(isDirectory)
            let ranked = models.sorted { rank($0) < rank($1) || (rank($0) == rank($1) && $0.lastPathComponent < $1.lastPathComponent) }
            for url in ranked where seenNames.insert(url.deletingPathExtension().lastPathComponent).inserted {
                found.append(url)
            }
        }
        return found
    }

    /// The model called `name` (`name.xcdatamodeld`, `.xcdatamodel` or `.momd`) in the first of
    /// `directories` (or the folders searched inside them) that holds one.
    ///
    /// For example:
    /// ```swift
    /// let url = ModelBundleLocator.modelURL(named: "HitList", searching: ModelBundleLocator.standardSearchDirectories)
    /// ```
    static func modelURL(named name: String, searching directories: [URL] = standardSearchDirectories) -> URL? {
        guard !name.isEmpty, !name.contains("/") else { return nil }
        for directory in directories {
            for folder in searchFolders(in: directory) {
                for pathExtension in modelExtensions {
                    let candidate = folder.appendingPathComponent("\(name).\(pathExtension)", isDirectory: true)
                    if isDirectory(candidate) { return candidate }
                }
            }
        }
        return nil
    }

    /// Where `NSPersistentContainer(name:)` looks: the main bundle, its resources, the resource
    /// bundles SwiftPM places next to the executable, and the current directory.
    static var standardSearchDirectories: [URL] {
        var directories = [Bundle.main.bundleURL]
        if let resources = Bundle.main.resourceURL { directories.append(resources) }
        if let executable = Bundle.main.executableURL?.deletingLastPathComponent() {
            directories.append(executable)
            directories += entries(of: executable, withExtensionIn: resourceBundleExtensions).filter(isDirectory)
        }
        directories.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        var seen = Set<String>()
        return directories.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    // MARK: Folders

    private static func searchFolders(in directory: URL) -> [URL] {
        var folders = [
            directory,
            directory.appendingPathComponent("Resources", isDirectory: true),
            directory.appendingPathComponent("Contents/Resources", isDirectory: true),
        ]
        for bundle in entries(of: directory, withExtensionIn: resourceBundleExtensions).filter(isDirectory) {
            folders.append(bundle)
            folders.append(bundle.appendingPathComponent("Contents/Resources", isDirectory: true))
        }
        return folders.filter(isDirectory)
    }

    /// Folder extensions of resource bundles: SwiftPM's on Linux, Xcode's elsewhere.
    private static let resourceBundleExtensions = ["resources", "bundle"]

    /// The folder's entries whose names end in `.` and one of `extensions`, in name order so
    /// results do not depend on the file system. Names are matched as strings before any
    /// `URL` is made: the executable's folder, which is the main bundle on Linux, can hold
    /// hundreds of entries, and a `URL` and its `pathExtension` cost about 10,000
    /// instructions each, which a migrating open paid for every entry.
    private static func entries(of directory: URL, withExtensionIn extensions: [String]) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { name in
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
            return extensions.contains { $0 == name[name.index(after: dot)...] }
        }.sorted().map { directory.appendingPathComponent($0) }
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func rank(_ url: URL) -> Int {
        modelExtensions.firstIndex(of: url.pathExtension) ?? modelExtensions.count
    }
}
