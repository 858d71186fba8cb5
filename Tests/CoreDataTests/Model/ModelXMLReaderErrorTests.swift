import Foundation
import Testing
@testable import CoreData

/// Files that are not valid models: each fails with an error naming file, line and problem.
@Suite struct ModelXMLReaderErrorTests {
    private func expectError(_ xml: String, line: Int?, mentioning text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let error = try #require(try ModelFiles.loadError(xml), "the model loaded", sourceLocation: sourceLocation)
        #expect(error.domain == NSCocoaErrorDomain, sourceLocation: sourceLocation)
        #expect(error.code == CocoaError.fileReadCorruptFile.rawValue, sourceLocation: sourceLocation)
        #expect(error.localizedDescription.contains(text), "\(error.localizedDescription)", sourceLocation: sourceLocation)
        #expect(error.userInfo[ModelXMLReader.lineNumberErrorKey] as? Int == line, sourceLocation: sourceLocation)
        #expect((error.userInfo[NSFilePathErrorKey] as? String)?.hasSuffix("/contents") == true, sourceLocation: sourceLocation)
    }

    @Test func malformedXMLReportsTheLine() throws {
        let xml = "<?xml version=\"1.0\"?>\n<model>\n    <entity name=\"A\">\n</model>\n"
        let error = try #require(try ModelFiles.loadError(xml))
        #expect(error.code == CocoaError.fileReadCorruptFile.rawValue)
        #expect(error.localizedDescription.contains("not well-formed"))
        #expect(error.localizedDescription.contains("/contents:"))
        #expect((error.userInfo[ModelXMLReader.lineNumberErrorKey] as? Int).map { $0 >= 3 } == true)
    }

    @Test func unknownAttributeTypeIsAnError() throws {
        let xml = ModelFiles.modelXML("""
            <entity name="Person" representedClassName="Person" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="tint" optional="YES" attributeType="Color"/>
            </entity>
            """)
        try expectError(xml, line: 5, mentioning: "attribute 'Person.tint' has unknown attributeType 'Color'")
    }

    @Test func missingFileIsNoSuchFile() throws {
        let url = try ModelFiles.temporaryFolder().appendingPathComponent("Missing.xcdatamodeld")
        #expect(NSManagedObjectModel(contentsOf: url) == nil)
        #expect {
            try NSManagedObjectModel.load(contentsOf: url)
        } throws: { error in
            let error = error as NSError
            return error.domain == NSCocoaErrorDomain && error.code == CocoaError.fileReadNoSuchFile.rawValue
                && error.localizedDescription.contains("Missing.xcdatamodeld")
        }
    }

    @Test func failableInitializerReturnsNilForAnInvalidModel() throws {
        let url = try ModelFiles.contentsFile("<model><entity/></model>")
        #expect(NSManagedObjectModel(contentsOf: url) == nil)
    }

    @Test(arguments: [
        ("<plist/>", "the root element is <plist>, expected <model>"),
        (ModelFiles.modelXML(#"<entity name="A"/><entity name="A"/>"#), "entity 'A' is defined twice"),
        (ModelFiles.modelXML(#"<entity name="A"><attribute name="x" attributeType="String"/><attribute name="x" attributeType="String"/></entity>"#),
         "entity 'A' has two properties named 'x'"),
        (ModelFiles.modelXML(#"<entity name="A"><attribute name="x"/></entity>"#), "attribute 'A.x' has no attributeType"),
        (ModelFiles.modelXML(#"<entity name="A"><attribute attributeType="String"/></entity>"#), "an <attribute> element has no name"),
        (ModelFiles.modelXML(#"<entity name="A B"/>"#), "entity name 'A B' is not a valid identifier"),
        (ModelFiles.modelXML(#"<entity name="A"><attribute name="x&quot;);--" attributeType="String"/></entity>"#), "is not a valid identifier"),
        (ModelFiles.modelXML(#"<entity name="A"><attribute name="x" attributeType="Undefined"/></entity>"#), "is Undefined but not transient"),
        (ModelFiles.modelXML(#"<entity name="A"><attribute name="x" attributeType="Integer 16" defaultValueString="70000"/></entity>"#),
         "default value '70000' of attribute 'A.x' is not an integer"),
        (ModelFiles.modelXML(#"<entity name="A"><attribute name="x" attributeType="Boolean" defaultValueString="maybe"/></entity>"#), "is not YES or NO"),
        (ModelFiles.modelXML(#"<entity name="A"><attribute name="x" attributeType="Double" maxValueString="lots"/></entity>"#), "maximum 'lots'"),
        (ModelFiles.modelXML(#"<entity name="A"><attribute name="x" attributeType="Double" defaultValueString="nan"/></entity>"#), "not a finite number"),
        (ModelFiles.modelXML(#"<entity name="A"><attribute name="x" attributeType="Decimal" defaultValueString="1.5abc"/></entity>"#), "not a decimal number"),
        (ModelFiles.modelXML(#"<entity name="A"><attribute name="x" attributeType="String" minValueString="-1"/></entity>"#), "minimum length '-1'"),
        (ModelFiles.modelXML(#"<entity name="A"><attribute name="x" attributeType="String" regularExpressionString="(["/></entity>"#), "regular expression"),
        (ModelFiles.modelXML(#"<entity name="A"><attribute name="x" attributeType="UUID" defaultValueString="not-a-uuid"/></entity>"#), "is not a UUID"),
        (ModelFiles.modelXML(#"<entity name="A"><relationship name="r" maxCount="1" deletionRule="Nullify"/></entity>"#), "relationship 'A.r' has no destination entity"),
        (ModelFiles.modelXML(#"<entity name="A"><relationship name="r" maxCount="1" deletionRule="Nullify" destinationEntity="B"/></entity>"#),
         "destination entity 'B' of relationship 'A.r' does not exist"),
        (ModelFiles.modelXML(#"<entity name="A"><relationship name="r" maxCount="1" deletionRule="Explode" destinationEntity="A"/></entity>"#), "unknown deletion rule 'Explode'"),
        (ModelFiles.modelXML(#"<entity name="A"><relationship name="r" toMany="YES" maxCount="-2" deletionRule="Nullify" destinationEntity="A"/></entity>"#), "invalid count '-2'"),
        (ModelFiles.modelXML(#"<entity name="A"><relationship name="r" toMany="YES" minCount="5" maxCount="2" deletionRule="Nullify" destinationEntity="A"/></entity>"#), "minCount 5 above maxCount 2"),
        (ModelFiles.modelXML(#"<entity name="A"><relationship name="r" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="s"/></entity>"#),
         "inverse 's' of relationship 'A.r' is not a relationship of 'A'"),
        (ModelFiles.modelXML(#"""
            <entity name="A"><relationship name="b" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="c"/></entity>
            <entity name="B"><relationship name="c" maxCount="1" deletionRule="Nullify" destinationEntity="C"/></entity>
            <entity name="C"/>
            """#), "inverse 'B.c' of relationship 'A.b' leads to 'C'"),
        (ModelFiles.modelXML(#"<entity name="A" parentEntity="Z"/>"#), "parent entity 'Z' of 'A' does not exist"),
        (ModelFiles.modelXML(#"<entity name="A" parentEntity="B"/><entity name="B" parentEntity="A"/>"#), "inherits from itself"),
        (ModelFiles.modelXML(#"""
            <entity name="A"><attribute name="x" attributeType="String"/></entity>
            <entity name="B" parentEntity="A"><attribute name="x" attributeType="String"/></entity>
            """#), "property 'x' of 'B' is already inherited from 'A'"),
        (ModelFiles.modelXML(#"<entity name="A"><uniquenessConstraints><uniquenessConstraint><constraint value="nope"/></uniquenessConstraint></uniquenessConstraints></entity>"#),
         "uniqueness constraint of 'A' names unknown property 'nope'"),
        (ModelFiles.modelXML(#"<entity name="A"/><fetchRequest name="All" entity="Nope"/>"#), "fetch request template 'All' names no entity of this model"),
        (ModelFiles.modelXML(#"<entity name="A"/><fetchRequest name="All" entity="A"/><fetchRequest name="All" entity="A"/>"#), "fetch request template 'All' is defined twice"),
        (ModelFiles.modelXML(#"<entity name="A"/><fetchRequest name="All" entity="A" fetchLimit="ten"/>"#), "invalid count 'ten'"),
    ])
    func invalidModelsAreRejectedWithAReason(xml: String, problem: String) throws {
        let error = try #require(try ModelFiles.loadError(xml), "loaded: \(problem)")
        #expect(error.code == CocoaError.fileReadCorruptFile.rawValue)
        #expect(error.localizedDescription.contains(problem), "\(error.localizedDescription)")
    }

    @Test func errorNamesTheLineOfTheOffendingElement() throws {
        let xml = ModelFiles.modelXML("""
            <entity name="A">
                <attribute name="ok" attributeType="String"/>
                <relationship name="r" maxCount="1" deletionRule="Nullify" destinationEntity="Nowhere"/>
            </entity>
            """)
        try expectError(xml, line: 5, mentioning: "contents:5: destination entity 'Nowhere'")
    }

    @Test func malformedTemplatePredicateFailsTheLoadNotTheFetch() throws {
        let xml = ModelFiles.modelXML("""
            <entity name="A">
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
            <fetchRequest name="Broken" entity="A" predicateString="name =="/>
            """)
        try expectError(xml, line: 6, mentioning: "the predicate of fetch request template 'Broken' does not parse")
    }

    // MARK: Model folders

    @Test func xcCurrentVersionNamingAMissingVersionFails() throws {
        let bundle = try makeBundle(versions: ["A.xcdatamodel"], current: "B.xcdatamodel")
        #expect {
            try NSManagedObjectModel.load(contentsOf: bundle)
        } throws: { ($0 as NSError).code == CocoaError.fileReadNoSuchFile.rawValue }
    }

    @Test func xcCurrentVersionCannotLeaveTheBundle() throws {
        let bundle = try makeBundle(versions: ["A.xcdatamodel"], current: "../A.xcdatamodel")
        #expect {
            try NSManagedObjectModel.load(contentsOf: bundle)
        } throws: { ($0 as NSError).localizedDescription.contains("_XCCurrentVersionName") }
    }

    @Test func withoutXCCurrentVersionTheOnlyVersionIsUsed() throws {
        let bundle = try makeBundle(versions: ["Only.xcdatamodel"], current: nil)
        #expect(try NSManagedObjectModel.load(contentsOf: bundle).entitiesByName["Thing"] != nil)
    }

    @Test func withoutXCCurrentVersionSeveralVersionsAreAmbiguous() throws {
        let bundle = try makeBundle(versions: ["A.xcdatamodel", "B.xcdatamodel"], current: nil)
        #expect {
            try NSManagedObjectModel.load(contentsOf: bundle)
        } throws: { ($0 as NSError).localizedDescription.contains("2 versions") }
    }

    @Test func contentsThatIsAFolderFailsAsUnreadable() throws {
        let model = try ModelFiles.temporaryFolder().appendingPathComponent("Odd.xcdatamodel")
        try FileManager.default.createDirectory(at: model.appendingPathComponent("contents"), withIntermediateDirectories: true)
        #expect(NSManagedObjectModel(contentsOf: model) == nil)
        #expect(throws: (any Error).self) { try NSManagedObjectModel.load(contentsOf: model) }
    }

    @Test func compiledModelFolderWithoutVersionsIsRefusedWithAnExplanation() throws {
        let momd = try ModelFiles.temporaryFolder().appendingPathComponent("App.momd")
        try FileManager.default.createDirectory(at: momd, withIntermediateDirectories: true)
        #expect {
            try NSManagedObjectModel.load(contentsOf: momd)
        } throws: { ($0 as NSError).localizedDescription.contains("holds no .mom version") }
    }

    @Test func compiledModelOfAnotherCompilerIsRefusedWithAnExplanation() throws {
        let mom = try ModelFiles.temporaryFolder().appendingPathComponent("App.mom")
        let foreign = try PropertyListSerialization.data(fromPropertyList: ["NSManagedObjectModel_VersionHashes": [:]], format: .binary, options: 0)
        try foreign.write(to: mom)
        #expect(NSManagedObjectModel(contentsOf: mom) == nil)
        #expect {
            try NSManagedObjectModel.load(contentsOf: mom)
        } throws: { ($0 as NSError).code == 259 && ($0 as NSError).localizedDescription.contains("not a compiled model") }
    }

    private func makeBundle(versions: [String], current: String?) throws -> URL {
        let bundle = try ModelFiles.temporaryFolder().appendingPathComponent("Test.xcdatamodeld")
        for version in versions {
            let folder = bundle.appendingPathComponent(version)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(ModelFiles.modelXML(#"<entity name="Thing"/>"#).utf8).write(to: folder.appendingPathComponent("contents"))
        }
        if let current {
            let plist = try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": current], format: .xml, options: 0)
            try plist.write(to: bundle.appendingPathComponent(".xccurrentversion"))
        }
        return bundle
    }
}

/// Hostile input: whatever the bytes, loading returns or throws and never traps.
@Suite struct ModelXMLReaderHostileInputTests {
    @Test func deeplyNestedElementsAreRefused() throws {
        let xml = String(repeating: "<model>", count: 20_000) + String(repeating: "</model>", count: 20_000)
        #expect(try ModelFiles.loadError(xml) != nil)
    }

    @Test func entityExpansionBombDoesNotExhaustMemory() throws {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE model [\n<!ENTITY a0 \"xxxxxxxxxx\">\n"
        for level in 1...12 {
            let previous = "&a\(level - 1);"
            xml += "<!ENTITY a\(level) \"\(String(repeating: previous, count: 10))\">\n"
        }
        xml += "]>\n<model><entity name=\"A\"><userInfo><entry key=\"k\" value=\"&a12;\"/></userInfo></entity></model>"
        // Expanded, the value would be 10^13 characters: the reader must refuse it instead.
        #expect(try ModelFiles.loadError(xml) != nil)
    }

    @Test func externalEntitiesAreNotFetched() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE model [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <model><entity name="A"><userInfo><entry key="k" value="&secret;"/></userInfo></entity></model>
            """
        if let model = NSManagedObjectModel(contentsOf: try ModelFiles.contentsFile(xml)) {
            let value = model.entitiesByName["A"]?.userInfo?["k"] as? String ?? ""
            #expect(!value.contains("root:"))
        }
    }

    @Test func emptyAndBinaryFilesFail() throws {
        #expect(try ModelFiles.loadError("") != nil)
        let url = try ModelFiles.temporaryFolder().appendingPathComponent("contents")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }).write(to: url)
        #expect(NSManagedObjectModel(contentsOf: url) == nil)
    }

    /// Truncations and byte flips of the fixture: a cheap deterministic fuzz of the reader.
    @Test func mutatedFixtureNeverTraps() throws {
        let original = try Data(contentsOf: ModelFiles.fixture("Fixture.xcdatamodeld/Fixture 2.xcdatamodel/contents"))
        let folder = try ModelFiles.temporaryFolder()
        var generator = SplitMix64(seed: 0x5EED)
        var loaded = 0
        for round in 0..<300 {
            var bytes = [UInt8](original)
            if round % 3 == 0 {
                bytes.removeLast(Int(generator.next() % UInt64(bytes.count)))
            } else {
                for _ in 0..<(1 + round % 8) {
                    let index = Int(generator.next() % UInt64(bytes.count))
                    bytes[index] = UInt8(truncatingIfNeeded: generator.next())
                }
            }
            let url = folder.appendingPathComponent("contents-\(round)")
            try Data(bytes).write(to: url)
            if NSManagedObjectModel(contentsOf: url) != nil { loaded += 1 }
        }
        #expect(loaded < 300)
    }
}

