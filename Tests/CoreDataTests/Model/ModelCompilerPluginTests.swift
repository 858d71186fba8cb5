@_spi(ModelCompiler) import CoreData
import Foundation
import Testing

/// Models as apps ship them: the `CoreDataModelCompiler` plugin compiled this target's
/// `FeedbackModel.xcdatamodeld` (written by Xcode) into `FeedbackModel.momd` at build time.
@Suite struct ModelCompilerPluginTests {
    @Test func modelCompiledAtBuildTimeLoadsThroughBundleModule() throws {
        let url = try #require(Bundle.module.url(forResource: "FeedbackModel", withExtension: "momd"))
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("VersionInfo.plist").path))
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("FeedbackModel.mom").path))
        let model = try #require(NSManagedObjectModel(contentsOf: url))
        #expect(Set(model.entitiesByName.keys) == ["FeedbackCategory", "FeedbackSubCategory"])
        let source = try #require(Bundle.module.url(forResource: "FeedbackModel", withExtension: "xcdatamodeld"))
        #expect(model == NSManagedObjectModel(contentsOf: source))
    }

    @Test func compiledModelStoresAndFetchesLikeItsSource() throws {
        let url = try #require(Bundle.module.url(forResource: "FeedbackModel", withExtension: "momd"))
        let model = try NSManagedObjectModel.load(contentsOf: url)
        let container = try makeContainer(model: model, storeURL: nil, type: NSInMemoryStoreType)
        let context = container.viewContext
        let category = NSEntityDescription.insertNewObject(forEntityName: "FeedbackCategory", into: context)
        let subcategory = NSEntityDescription.insertNewObject(forEntityName: "FeedbackSubCategory", into: context)
        subcategory.setValue(category, forKey: "category")
        try context.save()
        #expect((category.value(forKey: "subcategory") as? NSSet)?.count == 1)
    }

    @Test func versionedModelCompilesEveryVersionAndNamesTheCurrentOne() throws {
        let directory = TemporaryDirectory()
        let source = try #require(Bundle.module.url(forResource: "Fixtures/Fixture", withExtension: "xcdatamodeld"))
        let momd = directory.file("Fixture.momd")
        try ModelCompiler.compile(source, into: momd)
        let files = try FileManager.default.contentsOfDirectory(atPath: momd.path).sorted()
        #expect(files == ["Fixture 2.mom", "Fixture.mom", "VersionInfo.plist"])
        let info = try PropertyListSerialization.propertyList(
            from: Data(contentsOf: momd.appendingPathComponent("VersionInfo.plist")), format: nil) as? [String: Any]
        #expect(info?["NSManagedObjectModel_CurrentVersionName"] as? String == "Fixture 2")
        let hashes = info?["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]]
        let current = try NSManagedObjectModel.load(contentsOf: source)
        #expect(hashes?["Fixture 2"] == current.entityVersionHashesByName)
        #expect(try NSManagedObjectModel.load(contentsOf: momd) == current)
        let first = try NSManagedObjectModel.load(contentsOf: momd.appendingPathComponent("Fixture.mom"))
        #expect(try first == NSManagedObjectModel.load(contentsOf: source.appendingPathComponent("Fixture.xcdatamodel")))
    }

    @Test func aCurrentModuleClassCompilesQualifiedWithTheModule() throws {
        let directory = TemporaryDirectory()
        let version = directory.file("Zoo.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Animal" representedClassName=".ZooAnimal" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
            </model>
            """.utf8).write(to: version.appendingPathComponent("contents"))
        let mom = directory.file("Zoo.mom")
        try ModelCompiler.compile(version, into: mom, moduleName: "CoreDataTests")
        let model = try #require(NSManagedObjectModel(contentsOf: mom))
        let entity = try #require(model.entitiesByName["Animal"])
        #expect(entity.managedObjectClassName == "CoreDataTests.ZooAnimal")
        #expect(NSClassFromString(entity.managedObjectClassName) == ZooAnimal.self)

        let context = try makeContainer(model: model, storeURL: directory.file("Zoo.sqlite")).viewContext
        let animal = NSEntityDescription.insertNewObject(forEntityName: "Animal", into: context)
        #expect(animal is ZooAnimal)
    }

    @Test func brokenModelFailsToCompileNamingFileAndLine() throws {
        let directory = TemporaryDirectory()
        let version = directory.file("Broken.xcdatamodeld/Broken.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Thing">
                    <attribute name="size" attributeType="Enormous"/>
                </entity>
            </model>
            """
        try Data(xml.utf8).write(to: version.appendingPathComponent("contents"))
        let output = directory.file("Broken.momd")
        #expect {
            try ModelCompiler.compile(directory.file("Broken.xcdatamodeld"), into: output)
        } throws: { error in
            let description = (error as NSError).localizedDescription
            return description.contains("Broken.xcdatamodel/contents:4") && description.contains("Enormous")
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}

/// The class a model marks as the current module's (`.ZooAnimal`).
final class ZooAnimal: NSManagedObject {
    @Managed var name: String?
}
