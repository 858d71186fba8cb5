import Foundation
import Testing
@testable import CoreData

/// Reading `Fixtures/Fixture.xcdatamodeld`, a model in the exact form Xcode 15 saves.
@Suite struct ModelXMLReaderTests {
    let model: NSManagedObjectModel

    init() throws {
        model = try NSManagedObjectModel.load(contentsOf: ModelFiles.fixture("Fixture.xcdatamodeld"))
    }

    private func attribute(_ entity: String, _ name: String) throws -> NSAttributeDescription {
        try #require(model.entitiesByName[entity]?.attributesByName[name], "\(entity).\(name)")
    }

    private func relationship(_ entity: String, _ name: String) throws -> NSRelationshipDescription {
        try #require(model.entitiesByName[entity]?.relationshipsByName[name], "\(entity).\(name)")
    }

    @Test func versionedModelLoadsTheVersionNamedByXCCurrentVersion() {
        #expect(model.versionIdentifiers == ["2"])
        #expect(Set(model.entitiesByName.keys) == ["Author", "Book", "Chapter", "Item", "Magazine", "Publisher", "Tag"])
    }

    @Test func loadedModelEqualsTheSameModelBuiltInCode() {
        let differences = model.structuralDifferences(from: FixtureModel.make())
        #expect(differences == [])
        #expect(model.isStructurallyEqual(to: FixtureModel.make()))
    }

    @Test func structuralComparisonNoticesAChangedProperty() {
        let other = FixtureModel.make()
        other.entitiesByName["Book"]?.attributesByName["pages"]?.isOptional = false
        #expect(model.structuralDifferences(from: other) == ["Book.pages: optional true != false"])
    }

    @Test func versionFolderAndContentsFileLoadDirectly() throws {
        let folder = try ModelFiles.fixture("Fixture.xcdatamodeld/Fixture.xcdatamodel")
        let first = try NSManagedObjectModel.load(contentsOf: folder)
        #expect(first.versionIdentifiers == ["1"])
        #expect(Set(first.entitiesByName.keys) == ["Author", "Book"])
        let file = try NSManagedObjectModel.load(contentsOf: folder.appendingPathComponent("contents"))
        #expect(file.isStructurallyEqual(to: first))
        #expect(NSManagedObjectModel(contentsOf: folder) != nil)
    }

    @Test func everyXcodeAttributeTypeIsRead() throws {
        let expected: [String: NSAttributeType] = [
            "copiesSold": .integer64AttributeType, "cover": .binaryDataAttributeType,
            "edition": .integer32AttributeType, "identifier": .UUIDAttributeType,
            "inPrint": .booleanAttributeType, "isbn": .stringAttributeType,
            "pages": .integer16AttributeType, "price": .decimalAttributeType,
            "published": .dateAttributeType, "rating": .doubleAttributeType,
            "tint": .transformableAttributeType, "website": .URIAttributeType,
            "weight": .floatAttributeType,
        ]
        for (name, type) in expected {
            #expect(try attribute("Book", name).attributeType == type, "\(name)")
        }
    }

    @Test func absentOptionalFlagMeansMandatory() throws {
        #expect(try attribute("Author", "name").isOptional == false)
        #expect(try attribute("Author", "born").isOptional == true)
        #expect(try relationship("Chapter", "book").isOptional == false)
    }

    @Test func defaultValuesHaveTheAttributesTypes() throws {
        #expect(try attribute("Book", "pages").defaultValue as? Int16 == 100)
        #expect(try attribute("Book", "edition").defaultValue as? Int32 == 1)
        #expect(try attribute("Book", "copiesSold").defaultValue as? Int64 == 0)
        #expect(try attribute("Book", "inPrint").defaultValue as? Bool == true)
        #expect(try attribute("Book", "price").defaultValue as? Decimal == Decimal(string: "9.99"))
        #expect(try attribute("Book", "rating").defaultValue as? Double == 0)
        #expect(try attribute("Book", "weight").defaultValue as? Float == 0.5)
        #expect(try attribute("Book", "title").defaultValue as? String == "Untitled")
        #expect(try attribute("Tag", "label").defaultValue as? String == "")
        #expect(try attribute("Item", "added").defaultValue as? Date == Date(timeIntervalSinceReferenceDate: 694_224_000))
        #expect(try attribute("Book", "identifier").defaultValue == nil)
        #expect(try attribute("Book", "cover").defaultValue == nil)
    }

    @Test func validationFieldsBecomePredicatesWithCocoaErrorCodes() throws {
        func codes(_ entity: String, _ name: String) throws -> [Int] {
            try attribute(entity, name).validationWarnings.compactMap { $0 as? Int }
        }
        #expect(try codes("Book", "pages") == [NSValidationNumberTooSmallError, NSValidationNumberTooLargeError])
        #expect(try codes("Book", "rating") == [1620, 1610])
        #expect(try codes("Book", "price") == [1620])
        #expect(try codes("Book", "edition") == [1620])
        #expect(try codes("Author", "born") == [NSValidationDateTooSoonError, NSValidationDateTooLateError])
        #expect(try codes("Book", "title") == [NSValidationStringTooShortError, NSValidationStringTooLongError])
        #expect(try codes("Book", "isbn") == [NSValidationStringPatternMatchingError])
        #expect(try codes("Book", "published") == [])
        for name in ["pages", "rating", "title", "isbn"] {
            let attribute = try attribute("Book", name)
            #expect(attribute.validationPredicates.count == attribute.validationWarnings.count)
        }
    }

    @Test func validationPredicatesAcceptValuesInsideTheRangeAndRejectOthers() throws {
        let pages = try attribute("Book", "pages").validationPredicates
        #expect(pages.map { $0.evaluate(with: 0) } == [false, true])
        #expect(pages.map { $0.evaluate(with: 300) } == [true, true])
        #expect(pages.map { $0.evaluate(with: 5001) } == [true, false])
        let rating = try attribute("Book", "rating").validationPredicates
        #expect(rating.map { $0.evaluate(with: 6.0) } == [true, false])
        let born = try attribute("Author", "born").validationPredicates
        #expect(born.map { $0.evaluate(with: Date(timeIntervalSinceReferenceDate: -3_200_000_000)) } == [false, true])
        #expect(born.map { $0.evaluate(with: Date(timeIntervalSinceReferenceDate: 0)) } == [true, true])
        #expect(born.map { $0.evaluate(with: Date(timeIntervalSinceReferenceDate: 800_000_000)) } == [true, false])
        let title = try attribute("Book", "title").validationPredicates
        #expect(title.map { $0.evaluate(with: "") } == [false, true])
        #expect(title.map { $0.evaluate(with: String(repeating: "x", count: 201)) } == [true, false])
        let isbn = try attribute("Book", "isbn").validationPredicates
        #expect(isbn.map { $0.evaluate(with: "9780262510875") } == [true])
        #expect(isbn.map { $0.evaluate(with: "978-0262510875") } == [false])
    }

    @Test func transformableAttributeKeepsTransformerAndClass() throws {
        let tint = try attribute("Book", "tint")
        #expect(tint.valueTransformerName == "RGBAColorTransformer")
        #expect(tint.attributeValueClassName == "RGBAColor")
        #expect(try attribute("Book", "cover").allowsExternalBinaryDataStorage)
        #expect(try attribute("Item", "note").isTransient)
    }

    @Test func relationshipsResolveDestinationsInversesAndDeleteRules() throws {
        let chapters = try relationship("Book", "chapters")
        #expect(chapters.isToMany && chapters.isOrdered)
        #expect(chapters.deleteRule == .cascadeDeleteRule)
        #expect(chapters.destinationEntity === model.entitiesByName["Chapter"])
        #expect(chapters.inverseRelationship === (try relationship("Chapter", "book")))

        let authors = try relationship("Book", "authors")
        let books = try relationship("Author", "books")
        #expect(authors.isToMany && books.isToMany && !authors.isOrdered)
        #expect(authors.inverseRelationship === books && books.inverseRelationship === authors)

        let publisher = try relationship("Book", "publisher")
        #expect(!publisher.isToMany && publisher.maxCount == 1)
        #expect(publisher.deleteRule == .nullifyDeleteRule)
        #expect(try relationship("Publisher", "books").deleteRule == .denyDeleteRule)

        let items = try relationship("Tag", "items")
        #expect(items.deleteRule == .noActionDeleteRule)
        #expect(items.minCount == 1 && items.maxCount == 50 && items.isToMany)
        #expect(items.inverseRelationship === (try relationship("Item", "tags")))
    }

    @Test func parentEntityBuildsTheInheritanceTree() throws {
        let item = try #require(model.entitiesByName["Item"])
        let book = try #require(model.entitiesByName["Book"])
        #expect(item.isAbstract && !book.isAbstract)
        #expect(book.superentity === item)
        #expect(Set(item.subentities.compactMap(\.name)) == ["Book", "Magazine"])
        #expect(book.propertiesByName["added"] != nil && book.relationshipsByName["tags"] != nil)
        #expect(book.isKindOf(entity: item))
        #expect(book.managedObjectClassName == "Book")
    }

    @Test func uniquenessConstraintsAndUserInfoAreRead() throws {
        let author = try #require(model.entitiesByName["Author"])
        #expect(author.uniquenessConstraints.map { $0.compactMap { $0 as? String } } == [["name"]])
        #expect(model.entitiesByName["Book"]?.userInfo?["shelf"] as? String == "fiction")
        #expect(try attribute("Item", "note").userInfo?["hint"] as? String == "not stored")
    }

    @Test func fetchRequestTemplateIsStoredWithItsPredicateAndLimit() throws {
        let template = try #require(model.fetchRequestTemplate(forName: "BestSellers"))
        #expect(template.entityName == "Book")
        #expect(template.fetchLimit == 10)
        let predicate = try #require(template.predicate)
        #expect(predicate.evaluate(with: ["copiesSold": 2_000_000]))
        #expect(!predicate.evaluate(with: ["copiesSold": 10]))
    }
}
