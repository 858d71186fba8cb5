import Foundation
import SwiftData
import Testing

@Suite("Unique attributes: insert updates the saved model (upsert)")
struct UniquenessTests {
    @Test func insertWithASavedUniqueValueUpdatesThatRow() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try directory.container(Trip.self, Stop.self))
        context.insert(Trip(name: "Lisbon", nights: 2))
        try context.save()
        let other = ModelContext(try directory.container(Trip.self, Stop.self))
        other.insert(Trip(name: "Lisbon", nights: 6))
        other.insert(Trip(name: "Madrid", nights: 1))
        try other.save()
        #expect(try directory.sqlite("SELECT ZNAME, ZNIGHTS FROM ZTRIP ORDER BY ZNAME") == ["Lisbon|6", "Madrid|1"])
    }

    @Test func compoundConstraintMatchesOnAllItsProperties() throws {
        let directory = TemporaryDirectory()
        let context = ModelContext(try directory.container(Seat.self))
        context.insert(Seat(flight: "TP1", number: "1A", passenger: "Ana"))
        context.insert(Seat(flight: "TP1", number: "1B", passenger: "Rui"))
        try context.save()
        context.insert(Seat(flight: "TP1", number: "1A", passenger: "Eva"))
        context.insert(Seat(flight: "TP2", number: "1A", passenger: "Ivo"))
        try context.save()
        let seats = try context.fetch(FetchDescriptor<Seat>(sortBy: [SortDescriptor(\.flight), SortDescriptor(\.number)]))
        #expect(seats.map { "\($0.flight) \($0.number) \($0.passenger)" } == ["TP1 1A Eva", "TP1 1B Rui", "TP2 1A Ivo"])
    }
}
