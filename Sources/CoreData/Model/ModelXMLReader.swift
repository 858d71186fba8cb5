/// Reads the `contents` XML file Xcode writes for a data model (inside `Name.xcdatamodel`).
///
/// Apple compiles that file into a binary `.mom` with `momc`; this package's `momc` (run by
/// the `CoreDataModelCompiler` build-tool plugin) stores the checked element tree instead
/// (`CompiledModel`), and both forms are built into descriptions here.
/// The reader checks what `momc` would reject (unknown types, dangling entity names, bad
/// numbers) so a broken model fails where it is compiled or loaded, naming the file and line,
/// instead of at the first fetch.
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
        /// `<configuration name=><memberEntity name=/></configuration>`: entity names by configuration.
        var configurations: [String: [String]] = [:]
    }

    /// The `userInfo` key under which load errors carry the line of the offending element.
    static let lineNumberErrorKey = "ModelXMLLineNumber"

    /// Real models are a few hundred kilobytes; refusing larger files bounds the work a
    /// hostile file can cause before parsing starts.
    static let maximumFileSize = 32 << 20

    /// Reads and parses the file at `fileURL`; errors are `NSError`s naming the file and line.
    static func read(contentsOf fileURL: URL) throws -> Contents {
        try read(contentsOf: fileURL, as: ModelXMLTreeBuilder.parse)
    }

    /// Reads the file at `fileURL` into an element tree with `parse` (XML source, or a compiled
    /// model) and builds its contents; errors are `NSError`s naming the file and line.
    static func read(contentsOf fileURL: URL, as parse: (Data) throws(ModelXMLError) -> ModelXMLElement) throws -> Contents {
        try contents(of: try tree(contentsOf: fileURL, as: parse), in: fileURL)
    }

    /// The element tree of the file at `fileURL`, read with `parse`.
    static func tree(contentsOf fileURL: URL, as parse: (Data) throws(ModelXMLError) -> ModelXMLElement) throws -> ModelXMLElement {
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
        guard data.count <= maximumFileSize else {
            throw loadError(code: CocoaError.fileReadTooLarge.rawValue, file: fileURL, line: nil,
                            problem: "the file is larger than \(maximumFileSize) bytes")
        }
        do {
            return try parse(data)
        } catch {
            throw loadError(code: CocoaError.fileReadCorruptFile.rawValue, file: fileURL, line: error.line, problem: error.problem)
        }
    }

    /// The descriptions `root`, read from `fileURL`, describes.
    static func contents(of root: ModelXMLElement, in fileURL: URL) throws -> Contents {
        do {
            return try contents(of: root)
        } catch {
            throw loadError(code: CocoaError.fileReadCorruptFile.rawValue, file: fileURL, line: error.line, problem: error.problem)
        }
    }

    /// Parses model XML held in memory.
    static func read(_ data: Data) throws(ModelXMLError) -> Contents {
        guard data.count <= maximumFileSize else {
            throw ModelXMLError(line: nil, "the file is larger than \(maximumFileSize) bytes")
        }
        return try contents(of: ModelXMLTreeBuilder.parse(data))
    }

    /// Builds the descriptions an element tree (parsed or decoded) describes.
    static func contents(of root: ModelXMLElement) throws(ModelXMLError) -> Contents {
        try ModelXMLReader(root: root).contents()
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
        let names = Set(contents.entities.compactMap(\.name))
        for element in root.children(named: "configuration") {
            let name = try identifier(element, kind: "configuration")
            var members: [String] = []
            for member in element.children(named: "memberEntity") {
                guard let entity = member["name"], names.contains(entity) else {
                    throw ModelXMLError(line: member.line, "configuration '\(name)' names unknown entity '\(member["name"] ?? "")'")
                }
                members.append(entity)
            }
            contents.configurations[name, default: []] += members
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

