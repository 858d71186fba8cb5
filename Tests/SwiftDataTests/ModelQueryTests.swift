import Foundation
import SwiftData
import Testing

@Suite("ModelQuery: a live query over a fetched results controller")
struct ModelQueryTests {
    @Test func followsInsertsDeletesAndSortChangesWithADifference() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try directory.container(Trip.self, Stop.self))
        for name in ["Bravo", "Delta"] { context.insert(Trip(name: name)) }
        try context.save()
        let query = try ModelQuery(FetchDescriptor<Trip>(predicate: #Predicate { $0.nights < 10 }, sortBy: [SortDescriptor(\.name)]), in: context)
        #expect(query.models.map(\.name) == ["Bravo", "Delta"])
        var differences: [CollectionDifference<PersistentIdentifier>] = []
        query.onChange = { differences.append($0) }

        let alpha = Trip(name: "Alpha")
        context.insert(alpha)
        try context.save()
        #expect(query.models.map(\.name) == ["Alpha", "Bravo", "Delta"])
        #expect(differences.last?.insertions.count == 1)

        query.models[2].nights = 20
        try context.save()
        #expect(query.models.map(\.name) == ["Alpha", "Bravo"])
        #expect(differences.last?.removals.count == 1)
        #expect(differences.count == 2)
    }

    @Test func sectionsByAKeyPath() throws {
        let container = try ModelContainer(for: Trip.self, Stop.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let context = ModelContext(container)
        for (name, title) in [("Lisbon", "A"), ("Lisbon", "B"), ("Rome", "C")] {
            let stop = Stop(title: title, order: 0)
            context.insert(stop)
            let trips = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name == name }))
            stop.trip = trips.first ?? Trip(name: name)
        }
        try context.save()
        let trips = try ModelQuery(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]), in: context, sectionedBy: \.name)
        #expect(trips.sections.map(\.name) == ["Lisbon", "Rome"])
        #expect(trips.sections.map { $0.models.count } == [1, 1])
        #expect(Set(trips.sections[0].models[0].stops.map(\.title)) == ["A", "B"])
    }
}
