import CoreData
import Foundation
import Testing

/// Named configurations of a model, set in code or read from a model file's `configuration`
/// elements.
@Suite struct ConfigurationTests {
    let directory = TemporaryDirectory()

    @Test func setEntitiesNamesAConfiguration() throws {
        let person = NSEntityDescription(name: "Person", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType)])
        let log = NSEntityDescription(name: "Log", properties: [NSAttributeDescription(name: "line", type: .stringAttributeType)])
        let model = NSManagedObjectModel(entities: [person, log])
        #expect(model.configurations.isEmpty)
        #expect(model.entities(forConfigurationName: nil)?.count == 2)
        #expect(model.entities(forConfigurationName: "Default")?.count == 2)
        #expect(model.entities(forConfigurationName: "Local") == nil)

        model.setEntities([log], forConfigurationName: "Local")
        #expect(model.configurations == ["Local"])
        #expect(model.entities(forConfigurationName: "Local")?.map(\.name) == ["Log"])
        #expect(model.entities(forConfigurationName: nil)?.count == 2)
    }

    @Test func aModelFilesConfigurationsAreRead() throws {
        let folder = directory.file("Notes.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23B81" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Note" representedClassName="Note" syncable="YES" codeGenerationType="class">
                    <attribute name="text" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Draft" representedClassName="Draft" syncable="YES" codeGenerationType="class">
                    <attribute name="text" optional="YES" attributeType="String"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                </configuration>
                <configuration name="Local">
                    <memberEntity name="Draft"/>
                    <memberEntity name="Note"/>
                </configuration>
            </model>
            """.utf8).write(to: folder.appendingPathComponent("contents"))
        let model = try #require(NSManagedObjectModel(contentsOf: folder))
        #expect(model.configurations == ["Cloud", "Local"])
        #expect(model.entities(forConfigurationName: "Cloud")?.map(\.name) == ["Note"])
        #expect(model.entities(forConfigurationName: "Local")?.map(\.name) == ["Draft", "Note"])
    }
}
