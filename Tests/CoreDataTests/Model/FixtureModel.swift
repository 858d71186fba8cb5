import Foundation
@testable import CoreData

/// `Fixture 2.xcdatamodel` written out in code, to compare the loaded file with.
enum FixtureModel {
    static func make() -> NSManagedObjectModel {
        let author = NSEntityDescription(name: "Author", className: "Author", properties: [
            validated(NSAttributeDescription(name: "born", type: .dateAttributeType), [NSValidationDateTooSoonError, NSValidationDateTooLateError]),
            validated(NSAttributeDescription(name: "name", type: .stringAttributeType, optional: false, defaultValue: "Anonymous"),
                      [NSValidationStringTooShortError, NSValidationStringTooLongError]),
            NSRelationshipDescription(name: "books", destination: "Book", toMany: true, inverse: "authors"),
        ])
        author.uniquenessConstraints = [["name"]]

        let tint = NSAttributeDescription(name: "tint", type: .transformableAttributeType)
        tint.valueTransformerName = "RGBAColorTransformer"
        tint.attributeValueClassName = "RGBAColor"
        let cover = NSAttributeDescription(name: "cover", type: .binaryDataAttributeType)
        cover.allowsExternalBinaryDataStorage = true
        let book = NSEntityDescription(name: "Book", className: "Book", properties: [
            NSAttributeDescription(name: "copiesSold", type: .integer64AttributeType, optional: false, defaultValue: 0),
            cover,
            validated(NSAttributeDescription(name: "edition", type: .integer32AttributeType, optional: false, defaultValue: 1), [NSValidationNumberTooSmallError]),
            NSAttributeDescription(name: "identifier", type: .UUIDAttributeType),
            NSAttributeDescription(name: "inPrint", type: .booleanAttributeType, optional: false, defaultValue: true),
            validated(NSAttributeDescription(name: "isbn", type: .stringAttributeType), [NSValidationStringPatternMatchingError]),
            validated(NSAttributeDescription(name: "pages", type: .integer16AttributeType, defaultValue: 100), [NSValidationNumberTooSmallError, NSValidationNumberTooLargeError]),
            validated(NSAttributeDescription(name: "price", type: .decimalAttributeType, defaultValue: Decimal(string: "9.99")), [NSValidationNumberTooSmallError]),
            NSAttributeDescription(name: "published", type: .dateAttributeType),
            validated(NSAttributeDescription(name: "rating", type: .doubleAttributeType, defaultValue: 0.0), [NSValidationNumberTooSmallError, NSValidationNumberTooLargeError]),
            tint,
            validated(NSAttributeDescription(name: "title", type: .stringAttributeType, optional: false, defaultValue: "Untitled"),
                      [NSValidationStringTooShortError, NSValidationStringTooLongError]),
            NSAttributeDescription(name: "website", type: .URIAttributeType),
            NSAttributeDescription(name: "weight", type: .floatAttributeType, defaultValue: Float(0.5)),
            NSRelationshipDescription(name: "authors", destination: "Author", toMany: true, inverse: "books"),
            NSRelationshipDescription(name: "chapters", destination: "Chapter", toMany: true, ordered: true, inverse: "book", deleteRule: .cascadeDeleteRule),
            NSRelationshipDescription(name: "publisher", destination: "Publisher", inverse: "books"),
        ])
        book.userInfo = ["shelf": "fiction"]

        let chapter = NSEntityDescription(name: "Chapter", className: "Chapter", properties: [
            NSAttributeDescription(name: "number", type: .integer32AttributeType, optional: false, defaultValue: 0),
            NSAttributeDescription(name: "title", type: .stringAttributeType),
            NSRelationshipDescription(name: "book", destination: "Book", inverse: "chapters", optional: false),
        ])

        let note = NSAttributeDescription(name: "note", type: .stringAttributeType)
        note.isTransient = true
        note.userInfo = ["hint": "not stored"]
        let item = NSEntityDescription(name: "Item", className: "Item", properties: [
            NSAttributeDescription(name: "added", type: .dateAttributeType, optional: false,
                                   defaultValue: Date(timeIntervalSinceReferenceDate: 694_224_000)),
            note,
            NSRelationshipDescription(name: "tags", destination: "Tag", toMany: true, inverse: "items"),
        ])
        item.isAbstract = true

        let magazine = NSEntityDescription(name: "Magazine", className: "Magazine", properties: [
            NSAttributeDescription(name: "issue", type: .integer16AttributeType, optional: false, defaultValue: 1),
        ])
        item.subentities = [book, magazine]

        let publisher = NSEntityDescription(name: "Publisher", className: "Publisher", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType, optional: false),
            NSRelationshipDescription(name: "books", destination: "Book", toMany: true, inverse: "publisher", deleteRule: .denyDeleteRule),
        ])

        let items = NSRelationshipDescription(name: "items", destination: "Item", toMany: true, inverse: "tags", deleteRule: .noActionDeleteRule)
        items.minCount = 1
        items.maxCount = 50
        let tag = NSEntityDescription(name: "Tag", className: "Tag", properties: [
            NSAttributeDescription(name: "label", type: .stringAttributeType, optional: false, defaultValue: ""),
            items,
        ])

        let model = NSManagedObjectModel(entities: [author, book, chapter, item, magazine, publisher, tag])
        model.setFetchRequestTemplate(NSFetchRequest<NSFetchRequestResult>(entityName: "Book"), forName: "BestSellers")
        return model
    }

    /// Gives `attribute` one always-true predicate per code: the comparison checks the codes,
    /// and the loaded predicates' behaviour is tested on their own.
    private static func validated(_ attribute: NSAttributeDescription, _ codes: [Int]) -> NSAttributeDescription {
        attribute.setValidationPredicates(codes.map { _ in NSPredicate(value: true) }, withValidationWarnings: codes)
        return attribute
    }
}
