import CoreData
import Foundation
import Testing

/// `NSFetchIndexDescription`s become real SQLite indexes, whether built in code or read from a
/// model file's `fetchIndex` elements, and a store written before an index existed gets it.
@Suite struct FetchIndexTests {
    let directory = TemporaryDirectory()

    static func model(indexed: Bool) -> NSManagedObjectModel {
        let lastName = NSAttributeDescription(name: "lastName", type: .stringAttributeType)
        let firstName = NSAttributeDescription(name: "firstName", type: .stringAttributeType)
        let person = NSEntityDescription(name: "Person", properties: [lastName, firstName])
        if indexed {
            let byName = NSFetchIndexDescription(name: "byName", elements: [
                NSFetchIndexElementDescription(property: lastName, collationType: .binary),
                NSFetchIndexElementDescription(property: firstName, collationType: .binary),
            ])
            byName.elements[1].isAscending = false
            person.indexes = [byName]
        }
        return NSManagedObjectModel(entities: [person])
    }

    func indexSQL(_ url: URL, _ name: String) throws -> [String] {
        try SQLiteShell.lines(url, "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = '\(name)'")
    }

    @Test func anIndexBuiltInCodeIsCreatedWithItsColumnsAndOrder() throws {
        let model = Self.model(indexed: true)
        let index = try #require(model.entitiesByName["Person"]?.indexes.first)
        #expect(index.entity === model.entitiesByName["Person"])
        #expect(index.elements.map(\.propertyName) == ["lastName", "firstName"])
        #expect(index.elements.first?.indexDescription === index)

        let url = directory.file("People.sqlite")
        let context = try makeContainer(model: model, storeURL: url).viewContext
        NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue("Lovelace", forKey: "lastName")
        try context.save()
        #expect(try indexSQL(url, "Z_Person_byName") == ["CREATE INDEX Z_Person_byName ON ZPERSON (ZLASTNAME, ZFIRSTNAME DESC)"])
        let plan = try SQLiteShell.lines(url, "EXPLAIN QUERY PLAN SELECT Z_PK FROM ZPERSON WHERE ZLASTNAME = 'Lovelace'")
        #expect(plan.contains { $0.contains("Z_Person_byName") })
    }

    @Test func aStoreWrittenWithoutTheIndexGetsItWhenOpenedWithIt() throws {
        let url = directory.file("People.sqlite")
        let first = try makeContainer(model: Self.model(indexed: false), storeURL: url)
        try first.viewContext.save()
        first.persistentStoreCoordinator.persistentStores.forEach { try? first.persistentStoreCoordinator.remove($0) }
        #expect(try indexSQL(url, "Z_Person_byName").isEmpty)

        _ = try makeContainer(model: Self.model(indexed: true), storeURL: url)
        #expect(try indexSQL(url, "Z_Person_byName").count == 1)
    }

    @Test func aModelFilesFetchIndexIsRead() throws {
        let folder = directory.file("People.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23B81" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Person" representedClassName="Person" syncable="YES" codeGenerationType="class">
                    <attribute name="age" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <fetchIndex name="byAgeIndex">
                        <fetchIndexElement property="age" type="Binary" order="descending"/>
                        <fetchIndexElement property="name" type="Binary" order="ascending"/>
                    </fetchIndex>
                </entity>
            </model>
            """.utf8).write(to: folder.appendingPathComponent("contents"))
        let model = try #require(NSManagedObjectModel(contentsOf: folder))
        let index = try #require(model.entitiesByName["Person"]?.indexes.first)
        #expect(index.name == "byAgeIndex")
        #expect(index.elements.map(\.propertyName) == ["age", "name"])
        #expect(index.elements.map(\.isAscending) == [false, true])
        #expect(index.elements.allSatisfy { $0.collationType == .binary && $0.property != nil })

        let url = directory.file("People.sqlite")
        _ = try makeContainer(model: model, storeURL: url)
        #expect(try indexSQL(url, "Z_Person_byAgeIndex") == ["CREATE INDEX Z_Person_byAgeIndex ON ZPERSON (ZAGE DESC, ZNAME)"])
    }
}
