import Foundation
import Testing
@testable import CoreData

/// Where the model tests find their files, and scratch files for the error cases.
enum ModelFiles {
    /// `Tests/CoreDataTests/Fixtures`, as copied into the test bundle.
    static func fixture(_ relativePath: String) throws -> URL {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return folder.appendingPathComponent(relativePath)
    }

    /// The package's `Examples` folder; the example models are source files, not test resources.
    static var examples: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent() // Model
            .deletingLastPathComponent() // CoreDataTests
            .deletingLastPathComponent() // Tests
            .deletingLastPathComponent() // package root
            .appendingPathComponent("Examples", isDirectory: true)
    }

    /// A fresh empty folder under one folder per test process, which is removed when the
    /// process exits (the model tests write hundreds of these).
    static func temporaryFolder() throws -> URL {
        let folder = temporaryRoot.appendingPathComponent(UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private static let temporaryRoot: URL = {
        atexit { try? FileManager.default.removeItem(at: ModelFiles.processFolder) }
        return processFolder
    }()

    private static var processFolder: URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("ModelXMLTests-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    }

    /// Writes `xml` to a `contents` file in a fresh folder and returns the file's URL.
    static func contentsFile(_ xml: String) throws -> URL {
        let url = try temporaryFolder().appendingPathComponent("contents")
        try Data(xml.utf8).write(to: url)
        return url
    }

    /// `entities` wrapped in the `<model>` element Xcode writes.
    static func modelXML(_ entities: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23B81" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(entities)
        </model>
        """
    }

    /// The error loading `xml` produces, or nil if it loads.
    static func loadError(_ xml: String) throws -> NSError? {
        let url = try contentsFile(xml)
        do {
            _ = try NSManagedObjectModel.load(contentsOf: url)
            return nil
        } catch {
            return error as NSError
        }
    }
}
