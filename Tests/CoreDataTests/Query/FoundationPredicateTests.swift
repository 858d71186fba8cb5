import Foundation
import Testing
@testable import CoreData

/// `#Predicate`s over managed objects: each fetched from SQLite gives the same objects as the
/// equivalent format predicate, and evaluating in memory (ours and Foundation's) agrees.
@Suite struct FoundationPredicateTests {
    let directory = TemporaryDirectory()
    let container: NSPersistentContainer
    let context: NSManagedObjectContext
    let dates = (0..<3).map { Date(timeIntervalSinceReferenceDate: 1_000_000 + Double($0) * 86_400) }
    var dogs: [Dog] = []
    var walks: [Walk] = []

    init() throws {
        container = try makeContainer(model: TestModels.dogWalk(), storeURL: directory.file("Dogs.sqlite"))
        context = container.viewContext
        for name in ["Rex", "Fido", "Rover", nil, ""] {
            let dog = Dog(context: context)
            dog.name = name
            dogs.append(dog)
        }
        for (date, dog) in [(dates[0], dogs[0]), (dates[1], dogs[1]), (dates[2], nil), (nil, dogs[2]), (dates[1], dogs[3])] {
            let walk = Walk(context: context)
            walk.date = date
            walk.dog = dog
            walks.append(walk)
        }
        try context.save()
    }

    /// Fetches through SQLite with both predicates and evaluates both in memory; all must agree.
    func check<T: NSManagedObject>(_ predicate: Predicate<T>, _ format: String, _ args: Any...,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws {
        let entityName = String(describing: T.self)
        let translated = try NSPredicate.parse(predicate)
        let expected = NSPredicate(format: format, argumentArray: args)
        func fetch(_ predicate: NSPredicate) throws -> Set<NSManagedObjectID> {
            let request = NSFetchRequest<T>(entityName: entityName)
            request.predicate = predicate
            return Set(try context.fetch(request).map(\.objectID))
        }
        let all: [T] = try context.fetch(NSFetchRequest<T>(entityName: entityName))
        let fromFormat = try fetch(expected)
        let fromSwift = try fetch(translated)
        #expect(fromSwift == fromFormat, "\(translated.canonicalFormat) vs \(format)", sourceLocation: sourceLocation)
        let inMemory = Set(all.filter { translated.evaluate(with: $0) }.map(\.objectID))
        #expect(inMemory == fromFormat, "in memory: \(translated.canonicalFormat)", sourceLocation: sourceLocation)
        let byFoundation = Set(try all.filter { try predicate.evaluate($0) }.map(\.objectID))
        #expect(byFoundation == fromFormat, "Foundation's evaluation of \(translated.canonicalFormat)", sourceLocation: sourceLocation)
        #expect(!fromFormat.isEmpty && fromFormat.count < all.count, "case should discriminate: \(format)", sourceLocation: sourceLocation)
    }

    @Test func equalityAndNil() throws {
        try check(#Predicate<Dog> { $0.name == "Rex" }, "name == 'Rex'")
        try check(#Predicate<Dog> { $0.name != "Rex" }, "name != 'Rex'")
        try check(#Predicate<Dog> { $0.name == nil }, "name == nil")
        try check(#Predicate<Dog> { $0.name != nil }, "name != nil")
        try check(#Predicate<Walk> { $0.dog == nil }, "dog == nil")
    }

    @Test func orderings() throws {
        let middle = dates[1]
        try check(#Predicate<Walk> { $0.date != nil && $0.date! < middle }, "date < %@", middle as NSDate)
        try check(#Predicate<Walk> { $0.date != nil && $0.date! <= middle }, "date <= %@", middle as NSDate)
        try check(#Predicate<Walk> { $0.date != nil && $0.date! > middle }, "date > %@", middle as NSDate)
        try check(#Predicate<Walk> { $0.date != nil && $0.date! >= middle }, "date >= %@", middle as NSDate)
        try check(#Predicate<Dog> { ($0.name ?? "") > "N" }, "name > 'N'")
    }

    @Test func logic() throws {
        try check(#Predicate<Dog> { $0.name == "Rex" || $0.name == "Fido" }, "name == 'Rex' OR name == 'Fido'")
        try check(#Predicate<Dog> { $0.name != nil && !($0.name == "Rex") }, "name != nil AND NOT name == 'Rex'")
        try check(#Predicate<Dog> { !($0.name == nil || $0.name == "") }, "NOT (name == nil OR name == '')")
    }

    @Test func optionalChainsAndCoalescing() throws {
        try check(#Predicate<Walk> { $0.dog?.name == "Rex" }, "dog.name == 'Rex'")
        try check(#Predicate<Walk> { $0.dog?.name == nil }, "dog == nil OR dog.name == nil")
        try check(#Predicate<Walk> { ($0.dog?.name ?? "none") == "none" }, "dog.name == nil")
        try check(#Predicate<Dog> { ($0.name ?? "") == "" }, "name == nil OR name == ''")
        let start = dates[1]
        try check(#Predicate<Walk> { ($0.date ?? start) == start }, "date == nil OR date == %@", start as NSDate)
    }

    @Test func stringsAndMembership() throws {
        try check(#Predicate<Dog> { $0.name?.starts(with: "R") ?? false }, "name BEGINSWITH 'R'")
        try check(#Predicate<Dog> { $0.name?.contains("o") ?? false }, "name CONTAINS 'o'")
        try check(#Predicate<Dog> { ["Rex", "Fido"].contains($0.name) }, "name IN %@", ["Rex", "Fido"])
        try check(#Predicate<Walk> { $0.dog.flatMap { dog in ["Rex", "Rover"].contains(dog.name) } ?? false }, "dog.name IN {'Rex', 'Rover'}")
    }

    @Test func unsupportedExpressionsThrowNamingTheType() throws {
        let conditional = #Predicate<Dog> { ($0.name == "Rex" ? 1 : 0) == 1 }
        let error = #expect(throws: NSError.self) { try NSPredicate.parse(conditional) }
        #expect(error?.code == NSCoreDataError)
        #expect(error?.localizedDescription.contains("Conditional") == true)

        let computed = #Predicate<Dog> { ($0.name?.count ?? 0) == 3 }
        let keyPathError = #expect(throws: NSError.self) { try NSPredicate.parse(computed) }
        #expect(keyPathError?.localizedDescription.contains("key path") == true)

        // The non-throwing form carries the error to the fetch.
        let request = NSFetchRequest<Dog>(entityName: "Dog")
        request.predicate = NSPredicate(conditional)
        #expect(throws: NSError.self) { try context.fetch(request) }
        #expect(throws: NSError.self) { try request.setPredicate(computed) }
    }

    @Test func fetchRequestConveniences() throws {
        let request = NSFetchRequest<Dog>(entityName: "Dog", predicate: #Predicate { $0.name != nil && $0.name != "" },
                                          sortDescriptors: [SortDescriptor(\.name, order: .reverse)])
        #expect(try context.fetch(request).map(\.name) == ["Rover", "Rex", "Fido"])
        try request.setPredicate(#Predicate<Dog> { $0.name?.starts(with: "R") ?? false })
        request.setSortDescriptors([SortDescriptor(\Dog.name)])
        #expect(try context.fetch(request).map(\.name) == ["Rex", "Rover"])
        #expect(request.predicate?.canonicalFormat == "name != nil AND name BEGINSWITH \"R\"")
    }
}
