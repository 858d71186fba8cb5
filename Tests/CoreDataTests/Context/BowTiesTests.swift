import CoreData
import Foundation
import Testing

final class BowTie: NSManagedObject {
    @Managed var name: String?
    @Managed var isFavorite: Bool
    @Managed var lastWorn: Date?
    @Managed var rating: Double
    @Managed var searchKey: String?
    @Managed var timesWorn: Int32
    @Managed var id: UUID?
    @Managed var url: URL?
    @Managed var photoData: Data?

    @nonobjc class func fetchRequest() -> NSFetchRequest<BowTie> {
        NSFetchRequest<BowTie>(entityName: "BowTie")
    }
}

/// The BowTies chapter: typed subclass, search by key, wear, rate with validation, relaunch.
@MainActor @Suite struct BowTiesTests {
    let directory = TemporaryDirectory()

    static func model() -> NSManagedObjectModel {
        let rating = NSAttributeDescription(name: "rating", type: .doubleAttributeType, optional: false, defaultValue: 0.0)
        rating.setValidationPredicates([NSPredicate(format: "SELF >= 0"), NSPredicate(format: "SELF <= 5")],
                                       withValidationWarnings: [NSValidationNumberTooSmallError, NSValidationNumberTooLargeError])
        let name = NSAttributeDescription(name: "name", type: .stringAttributeType)
        name.setValidationPredicates([NSPredicate(format: "length >= 2")], withValidationWarnings: [NSValidationStringTooShortError])
        return NSManagedObjectModel(entities: [
            NSEntityDescription(name: "BowTie", className: "BowTie", properties: [
                name, rating,
                NSAttributeDescription(name: "isFavorite", type: .booleanAttributeType, optional: false, defaultValue: false),
                NSAttributeDescription(name: "lastWorn", type: .dateAttributeType),
                NSAttributeDescription(name: "searchKey", type: .stringAttributeType),
                NSAttributeDescription(name: "timesWorn", type: .integer32AttributeType, optional: false, defaultValue: 0),
                NSAttributeDescription(name: "id", type: .UUIDAttributeType),
                NSAttributeDescription(name: "url", type: .URIAttributeType),
                NSAttributeDescription(name: "photoData", type: .binaryDataAttributeType),
            ]),
        ])
    }

    func context() throws -> NSManagedObjectContext {
        try makeContainer(model: Self.model(), storeURL: directory.file("BowTies.sqlite")).viewContext
    }

    func seed(_ context: NSManagedObjectContext) throws {
        for (name, key, rating) in [("Red Bow Tie", "R", 4.0), ("Blue Bow Tie", "B", 3.5), ("Black Bow Tie", "BK", 5.0)] {
            let tie = BowTie(context: context)
            tie.name = name
            tie.searchKey = key
            tie.rating = rating
            tie.id = UUID()
        }
        try context.save()
    }

    @Test func firstLaunchSeedsOnceAndSearchFindsByKey() throws {
        let context = try context()
        let seeded: NSFetchRequest<BowTie> = BowTie.fetchRequest()
        seeded.predicate = NSPredicate(format: "searchKey != nil")
        if try context.count(for: seeded) == 0 { try seed(context) }
        #expect(try context.count(for: seeded) == 3)

        let request: NSFetchRequest<BowTie> = BowTie.fetchRequest()
        request.predicate = NSPredicate(format: "%K = %@", argumentArray: [keyPathString("searchKey"), "BK"])
        let black = try #require(try context.fetch(request).first)
        #expect(black.name == "Black Bow Tie")

        let sorted: NSFetchRequest<BowTie> = BowTie.fetchRequest()
        sorted.sortDescriptors = [NSSortDescriptor(key: "rating", ascending: false)]
        #expect(try context.fetch(sorted).map(\.searchKey) == ["BK", "R", "B"])
    }

    @Test func wearingAndRatingPersistAcrossRelaunch() throws {
        let wornAt = Date(timeIntervalSinceReferenceDate: 750_000_000.5)
        do {
            let context = try context()
            try seed(context)
            let request: NSFetchRequest<BowTie> = BowTie.fetchRequest()
            request.predicate = NSPredicate(format: "searchKey == %@", "R")
            let red = try #require(try context.fetch(request).first)
            red.timesWorn += 1
            red.lastWorn = wornAt
            red.rating = 2.5
            red.isFavorite = true
            try context.save()
        }
        let request: NSFetchRequest<BowTie> = BowTie.fetchRequest()
        request.predicate = NSPredicate(format: "searchKey == %@", "R")
        let relaunched = try context()
        let red = try #require(try relaunched.fetch(request).first)
        #expect(red.timesWorn == 1)
        #expect(red.lastWorn == wornAt)
        #expect(red.rating == 2.5)
        #expect(red.isFavorite)
    }

    @Test func ratingOutsideZeroToFiveFailsWithApplesCodesAndCanBeRetried() throws {
        let context = try context()
        try seed(context)
        let tie = try #require(try context.fetch(BowTie.fetchRequest() as NSFetchRequest<BowTie>).first)
        tie.rating = 6
        let tooLarge = try #require(throws: NSError.self) { try context.save() }
        #expect(tooLarge.code == NSValidationNumberTooLargeError)
        #expect(tooLarge.userInfo[NSValidationKeyErrorKey] as? String == "rating")
        tie.rating = -1
        #expect((try #require(throws: NSError.self) { try context.save() }).code == NSValidationNumberTooSmallError)
        tie.name = "X"
        let both = try #require(throws: NSError.self) { try context.save() }
        #expect(both.code == NSValidationMultipleErrorsError)
        context.rollback()
        #expect(tie.rating != -1)
        #expect(!context.hasChanges)
    }

    @Test func fetchesAndCountsIncludeUnsavedChanges() throws {
        let context = try context()
        try seed(context)
        let favourites: NSFetchRequest<BowTie> = BowTie.fetchRequest()
        favourites.predicate = NSPredicate(format: "isFavorite == YES")
        favourites.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let all = try context.fetch(BowTie.fetchRequest() as NSFetchRequest<BowTie>)
        all.first { $0.searchKey == "B" }?.isFavorite = true
        let fresh = BowTie(context: context)
        fresh.name = "Aqua Bow Tie"
        fresh.isFavorite = true
        #expect(try context.count(for: favourites) == 2)
        #expect(try context.fetch(favourites).map(\.name) == ["Aqua Bow Tie", "Blue Bow Tie"])
        context.delete(fresh)
        #expect(try context.fetch(favourites).map(\.name) == ["Blue Bow Tie"])
        favourites.includesPendingChanges = false
        #expect(try context.count(for: favourites) == 0)
    }

    @Test func malformedPredicateThrowsFromFetchInsteadOfCrashing() throws {
        let context = try context()
        let request: NSFetchRequest<BowTie> = BowTie.fetchRequest()
        request.predicate = NSPredicate(format: "searchKey == == 'x'")
        let error = try #require(throws: NSError.self) { try context.fetch(request) }
        #expect(error.localizedDescription.isEmpty == false)
        request.predicate = NSPredicate(format: "colour == 'red'")
        #expect(throws: NSError.self) { try context.fetch(request) }
    }
}

/// `#keyPath` does not exist on Linux; ported code spells the key as a string.
func keyPathString(_ key: String) -> String { key }
