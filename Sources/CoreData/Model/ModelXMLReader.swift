/// Reads the `contents` XML file Xcode writes for a data model (inside `Name.xcdatamodel`).
///
/// Apple compiles that file into a binary `.mom` with `momc`; Linux has no `momc`, so the
/// package reads the source file directly, as `NSManagedObjectModel(contentsOf:)` does.
/// The reader checks what `momc` would reject (unknown types, dangling entity names, bad
/// numbers) so a broken model fails where it is loaded, naming the file and line, instead of
/// at the first fetch.
///
/// For example:
/// ```swift
/// let contents = try ModelXMLReader.read(contentsOf: modelURL.appending(path: "contents"))
/// let model = NSManagedObjectModel(entities: contents.entities)
/// ```
struct ModelXMLReader {
    /// What one `contents` file describes, ready to be installed in a model.
    struct Contents {
        var entities: [NSEntityDescription] = []
        var fetchRequestTemplates: [(name: String, request: NSFetchRequest<NSFetchRequestResult>)] = []
        var versionIdentifiers: Set<AnyHashable> = []
    }

    /// The `userInfo` key under which load errors carry the line of the offending element.
    static let lineNumberErrorKey = "ModelXMLLineNumber"

    /// Real models are a few hundred kilobytes; refusing larger files bounds the work a
    /// hostile file can cause before parsing starts.
    static let maximumFileSize = 32 << 20

    /// Reads and parses the file at `fileURL`; errors are `NSError`s naming the file and line.
    static func read(contentsOf fileURL: URL) throws -> Contents {
        let size = (try? FileManager.default.attributesOfItem(atPath: fileURL.path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maximumFileSize else {
            throw loadError(code: CocoaError.fileReadTooLarge.rawValue, file: fileURL, line: nil,
                            problem: "the file is larger than \(maximumFileSize) bytes")
        }
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            // Keep Foundation's code (no such file, no permission) when it has one.
            let nsError = error as NSError
            let code = nsError.domain == NSCocoaErrorDomain ? nsError.code : CocoaError.fileReadUnknown.rawValue
            throw loadError(code: code, file: fileURL, line: nil, problem: "the file cannot be read", underlying: error)
        }
        do {
            return try read(data)
        } catch {
            throw loadError(code: CocoaError.fileReadCorruptFile.rawValue, file: fileURL,
                            line: error.line, problem: error.problem)
        }
    }

    /// Parses model XML held in memory.
    static func read(_ data: Data) throws(ModelXMLError) -> Contents {
        guard data.count <= maximumFileSize else {
            throw ModelXMLError(line: nil, "the file is larger than \(maximumFileSize) bytes")
        }
        let root = try ModelXMLTreeBuilder.parse(data)
        return try ModelXMLReader(root: root).contents()
    }

    /// The error every load failure becomes: Cocoa's domain, a readable message, the file.
    static func loadError(code: Int, file: URL, line: Int?, problem: String, underlying: Error? = nil) -> NSError {
        let place = line.map { "\(file.path):\($0)" } ?? file.path
        var userInfo: [String: Any] = [
            NSLocalizedDescriptionKey: "Cannot load the data model at \(place): \(problem).",
            NSLocalizedFailureReasonErrorKey: problem,
            NSFilePathErrorKey: file.path,
            NSURLErrorKey: file,
        ]
        if let line { userInfo[lineNumberErrorKey] = line }
        if let underlying { userInfo[NSUnderlyingErrorKey] = underlying }
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: userInfo)
    }

    // MARK: Building

    let root: ModelXMLElement

    private func contents() throws(ModelXMLError) -> Contents {
        guard root.name == "model" else {
            throw ModelXMLError(line: root.line, "the root element is <\(root.name)>, expected <model>")
        }
        var contents = Contents()
        let entities = try buildEntities()
        contents.entities = entities.map(\.entity)
        contents.fetchRequestTemplates = try buildFetchRequestTemplates(entities: entities)
        if let identifier = root["userDefinedModelVersionIdentifier"], !identifier.isEmpty {
            contents.versionIdentifiers = [identifier]
        }
        return contents
    }
}
/// A problem found while reading a model file, at a line when one is known.
struct ModelXMLError: Error, Equatable {
    var line: Int?
    var problem: String

    init(line: Int?, _ problem: String) {
        self.line = line
        self.problem = problem
    }
}

