import Foundation
import Testing
@testable import CoreData

/// Finding models where SwiftPM (Linux and macOS) and Xcode copy them.
@Suite struct ModelBundleLocatorTests {
    /// A folder laid out like a build products directory:
    ///
    ///     App.xcdatamodeld                     next to the executable
    ///     Resources/Notes.xcdatamodel
    ///     App_App.resources/Store.xcdatamodeld  SwiftPM on Linux
    ///     App_App.resources/Store.momd          same model, compiled: skipped
    ///     Kit.bundle/Contents/Resources/Old.momd
    ///     deep/nested/Hidden.xcdatamodeld       too deep: not searched
    ///     Readme.xcdatamodeld.txt               a file, not a model
    private func makeProductsFolder() throws -> URL {
        let root = try ModelFiles.temporaryFolder()
        for path in ["App.xcdatamodeld", "Resources/Notes.xcdatamodel", "App_App.resources/Store.xcdatamodeld",
                     "App_App.resources/Store.momd", "Kit.bundle/Contents/Resources/Old.momd", "deep/nested/Hidden.xcdatamodeld"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        try Data("not a model".utf8).write(to: root.appendingPathComponent("Readme.xcdatamodeld.txt"))
        return root
    }

    @Test func modelURLsFindsModelsInTheFolderAndItsResourceBundles() throws {
        let root = try makeProductsFolder()
        let found = ModelBundleLocator.modelURLs(in: root).map { $0.path.replacingOccurrences(of: root.path + "/", with: "") }
        #expect(found == ["App.xcdatamodeld", "Resources/Notes.xcdatamodel", "App_App.resources/Store.xcdatamodeld",
                          "Kit.bundle/Contents/Resources/Old.momd"])
    }

    @Test func modelURLNamedPrefersTheSourceModelAndSearchesDirectoriesInOrder() throws {
        let root = try makeProductsFolder()
        let other = try ModelFiles.temporaryFolder()
        try FileManager.default.createDirectory(at: other.appendingPathComponent("Store.xcdatamodel"), withIntermediateDirectories: true)
        #expect(ModelBundleLocator.modelURL(named: "Store", searching: [root, other])?.lastPathComponent == "Store.xcdatamodeld")
        #expect(ModelBundleLocator.modelURL(named: "Store", searching: [other, root])?.lastPathComponent == "Store.xcdatamodel")
        #expect(ModelBundleLocator.modelURL(named: "Notes", searching: [root])?.lastPathComponent == "Notes.xcdatamodel")
        #expect(ModelBundleLocator.modelURL(named: "Old", searching: [root])?.lastPathComponent == "Old.momd")
    }

    @Test func modelURLNamedDoesNotSearchDeeplyOrOutsideTheDirectories() throws {
        let root = try makeProductsFolder()
        #expect(ModelBundleLocator.modelURL(named: "Hidden", searching: [root]) == nil)
        #expect(ModelBundleLocator.modelURL(named: "Missing", searching: [root]) == nil)
        #expect(ModelBundleLocator.modelURL(named: "../App", searching: [root.appendingPathComponent("Resources")]) == nil)
        #expect(ModelBundleLocator.modelURL(named: "", searching: [root]) == nil)
    }

    @Test func standardSearchDirectoriesIncludeTheExecutableFolderAndCurrentDirectory() {
        let paths = ModelBundleLocator.standardSearchDirectories.map(\.standardizedFileURL.path)
        #expect(paths.contains(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path))
        #expect(paths.contains(Bundle.main.bundleURL.standardizedFileURL.path))
        #expect(Set(paths).count == paths.count)
    }

    @Test func mergedModelCombinesTheModelsOfABundle() throws {
        let root = try ModelFiles.temporaryFolder()
        for (name, entity) in [("One", "Apple"), ("Two", "Pear")] {
            let folder = root.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let xml = ModelFiles.modelXML(#"<entity name="\#(entity)"><attribute name="name" optional="YES" attributeType="String"/></entity>"#)
            try Data(xml.utf8).write(to: folder.appendingPathComponent("contents"))
        }
        let bundle = try #require(Bundle(url: root))
        let merged = try #require(NSManagedObjectModel.mergedModel(from: [bundle]))
        #expect(Set(merged.entitiesByName.keys) == ["Apple", "Pear"])
    }
}
