import Foundation
import SwiftData
import Testing

@Suite("Model inheritance")
struct InheritanceTests {
    private func container(_ directory: TemporaryDirectory) throws -> ModelContainer {
        try ModelContainer(for: Schema(vehicleModels), configurations: [ModelConfiguration(url: directory.storeURL)])
    }

    @Test func subclassesMapOntoSubentitiesInTheRootEntitysTable() throws {
        let directory = TemporaryDirectory()
        let container = try container(directory)
        let model = container.schema.managedObjectModel
        #expect(model.entitiesByName["Car"]?.superentity === model.entitiesByName["Vehicle"])
        #expect(model.entitiesByName["DumpTruck"]?.superentity === model.entitiesByName["Truck"])
        #expect(model.entitiesByName["Car"]?.attributesByName.keys.sorted() == ["doors", "make", "trim", "year"])
        let car = try #require(container.schema.entitiesByName["Car"])
        #expect(car.superentity?.name == "Vehicle")
        #expect(car.superentityName == "Vehicle")
        #expect(container.schema.entitiesByName["Vehicle"]?.subentities.map(\.name).sorted() == ["Car", "Truck"])
        #expect(car.attributesByName["make"] != nil && car.attributesByName["doors"] != nil)

        let context = ModelContext(container)
        context.insert(Vehicle(make: "Ford", year: 1960))
        context.insert(Car(make: "Volvo", year: 2001, doors: 4))
        context.insert(DumpTruck(make: "Scania", capacity: 30))
        try context.save()
        // Read by the sqlite3 tool: one table for the hierarchy, rows told apart by Z_ENT, as
        // Core Data lays them out (Z_PRIMARYKEY names each entity and its superentity).
        #expect(try directory.sqlite("SELECT name FROM sqlite_master WHERE name IN ('ZCAR', 'ZTRUCK', 'ZDUMPTRUCK')") == [])
        let entities = try directory.sqlite("SELECT Z_NAME || ':' || Z_ENT || ':' || Z_SUPER FROM Z_PRIMARYKEY")
        let numbers = Dictionary(uniqueKeysWithValues: entities.map { $0.split(separator: ":").map(String.init) }.map { ($0[0], ($0[1], $0[2])) })
        let vehicle = try #require(numbers["Vehicle"]), carNumbers = try #require(numbers["Car"])
        let truck = try #require(numbers["Truck"]), dumpTruck = try #require(numbers["DumpTruck"])
        #expect(carNumbers.1 == vehicle.0 && truck.1 == vehicle.0 && dumpTruck.1 == truck.0)
        #expect(try directory.sqlite("SELECT Z_ENT || ':' || ZMAKE || ':' || IFNULL(ZDOORS, '-') || ':' || IFNULL(ZCAPACITY, '-') FROM ZVEHICLE ORDER BY ZMAKE") == [
            "\(vehicle.0):Ford:-:-", "\(dumpTruck.0):Scania:-:30.0", "\(carNumbers.0):Volvo:4:-",
        ])
    }

    @Test func aFetchOfTheBaseClassReturnsSubclassesAsTheirOwnClasses() throws {
        let directory = TemporaryDirectory()
        let container = try container(directory)
        do {
            let context = ModelContext(container)
            context.insert(Vehicle(make: "Ford", year: 1960))
            let car = Car(make: "Volvo", year: 2001, doors: 4)
            car.trim = .sport
            context.insert(car)
            context.insert(DumpTruck(make: "Scania", capacity: 30))
            try context.save()
        }
        let context = ModelContext(container)
        let vehicles = try context.fetch(FetchDescriptor<Vehicle>(sortBy: [SortDescriptor(\.make)]))
        #expect(vehicles.map(\.make) == ["Ford", "Scania", "Volvo"])
        #expect(vehicles.map { String(describing: type(of: $0)) } == ["Vehicle", "DumpTruck", "Car"])
        let car = try #require(vehicles.last as? Car)
        #expect(car.doors == 4 && car.trim == .sport && car.make == "Volvo" && car.year == 2001)
        #expect((vehicles[1] as? DumpTruck)?.capacity == 30)
        #expect(try context.fetch(FetchDescriptor<Car>()).map(\.make) == ["Volvo"])
        #expect(try context.fetch(FetchDescriptor<Truck>()).map(\.make) == ["Scania"])
        #expect(try context.fetchCount(FetchDescriptor<Vehicle>()) == 3)
        #expect(car.persistentModelID.entityName == "Car")
    }

    @Test func predicatesOnASubclassReachInheritedAndOwnProperties() throws {
        let context = ModelContext(try ModelContainer(for: Schema(vehicleModels), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)]))
        context.insert(Car(make: "Volvo", year: 2001, doors: 4))
        context.insert(Car(make: "Volvo", year: 1999, doors: 2))
        context.insert(Car(make: "Saab", year: 2005, doors: 4))
        context.insert(Vehicle(make: "Volvo", year: 2010))
        try context.save()
        let make = "Volvo"
        let descriptor = FetchDescriptor<Car>(predicate: #Predicate { $0.make == make && $0.doors >= 4 })
        #expect(try context.fetch(descriptor).map(\.year) == [2001])
        let sorted = try context.fetch(FetchDescriptor<Car>(sortBy: [SortDescriptor(\.year, order: .reverse)]))
        #expect(sorted.map(\.year) == [2005, 2001, 1999])
        let recent = try context.fetch(FetchDescriptor<Vehicle>(predicate: #Predicate { $0.year > 2000 }, sortBy: [SortDescriptor(\.year)]))
        #expect(recent.map(\.year) == [2001, 2005, 2010])
        try context.delete(model: Vehicle.self, where: #Predicate { $0.make == make }, includeSubclasses: false)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Vehicle>()) == 3)
    }

    @Test func aTypeCheckInAPredicateSelectsAClassAndItsSubclasses() throws {
        let context = ModelContext(try ModelContainer(for: Schema(vehicleModels), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)]))
        context.insert(Vehicle(make: "Ford", year: 1960))
        context.insert(Car(make: "Volvo", year: 2001, doors: 4))
        context.insert(Truck(make: "MAN", year: 1999, capacity: 8))
        context.insert(DumpTruck(make: "Scania", capacity: 30))
        try context.save()
        let trucks = try context.fetch(FetchDescriptor<Vehicle>(predicate: #Predicate { $0 is Truck }, sortBy: [SortDescriptor(\.make)]))
        #expect(trucks.map(\.make) == ["MAN", "Scania"])
        let recentCars = #Predicate<Vehicle> { $0 is Car && $0.year > 2000 }
        // An unsaved car takes part too, evaluated in memory.
        context.insert(Car(make: "Saab", year: 2005, doors: 2))
        #expect(try context.fetch(FetchDescriptor(predicate: recentCars, sortBy: [SortDescriptor(\.make)])).map(\.make) == ["Saab", "Volvo"])
        #expect(try context.fetchCount(FetchDescriptor<Vehicle>(predicate: #Predicate { !($0 is Truck) })) == 3)
    }

    @Test func aCastInAPredicateReadsASubclassPropertyInSQL() throws {
        let directory = TemporaryDirectory()
        let container = try container(directory)
        do {
            let context = ModelContext(container)
            context.insert(Vehicle(make: "Ford", year: 1960))
            context.insert(Car(make: "Volvo", year: 2001, doors: 4))
            context.insert(Car(make: "Saab", year: 2005, doors: 2))
            context.insert(Truck(make: "MAN", year: 1999, capacity: 8))
            context.insert(DumpTruck(make: "Scania", capacity: 30))
            try context.save()
        }
        let context = ModelContext(container)
        let byMake = [SortDescriptor(\Vehicle.make)]
        let fourDoors = FetchDescriptor<Vehicle>(predicate: #Predicate { ($0 as? Car)?.doors == 4 }, sortBy: byMake)
        #expect(try context.fetch(fourDoors).map(\.make) == ["Volvo"])
        // A cast to a class with subclasses takes their rows too; a failed cast is nil.
        let heavy = FetchDescriptor<Vehicle>(predicate: #Predicate { (($0 as? Truck)?.capacity ?? 0) >= 8 }, sortBy: byMake)
        #expect(try context.fetch(heavy).map(\.make) == ["MAN", "Scania"])
        let notFourDoors = FetchDescriptor<Vehicle>(predicate: #Predicate { ($0 as? Car)?.doors != 4 }, sortBy: byMake)
        #expect(try context.fetch(notFourDoors).map(\.make) == ["Ford", "MAN", "Saab", "Scania"])
        let notCars = FetchDescriptor<Vehicle>(predicate: #Predicate { ($0 as? Car) == nil }, sortBy: byMake)
        #expect(try context.fetch(notCars).map(\.make) == ["Ford", "MAN", "Scania"])

        // An unsaved car takes part too, evaluated in memory, and agrees.
        context.insert(Car(make: "Audi", year: 2020, doors: 4))
        #expect(try context.fetch(fourDoors).map(\.make) == ["Audi", "Volvo"])
        #expect(try context.fetch(notFourDoors).map(\.make) == ["Ford", "MAN", "Saab", "Scania"])
        #expect(try context.fetch(notCars).map(\.make) == ["Ford", "MAN", "Scania"])
    }

    @Test func aRelationshipToTheBaseClassHoldsSubclasses() throws {
        let directory = TemporaryDirectory()
        let container = try container(directory)
        do {
            let context = ModelContext(container)
            let garage = Garage(name: "Home")
            context.insert(garage)
            garage.vehicles = [Car(make: "Volvo", year: 2001, doors: 4), DumpTruck(make: "Scania", capacity: 12), Vehicle(make: "Ford", year: 1960)]
            try context.save()
        }
        let context = ModelContext(container)
        let garage = try #require(try context.fetch(FetchDescriptor<Garage>()).first)
        let kinds = garage.vehicles.map { String(describing: type(of: $0)) }.sorted()
        #expect(kinds == ["Car", "DumpTruck", "Vehicle"])
        let car = try #require(garage.vehicles.compactMap { $0 as? Car }.first)
        #expect(car.garage?.name == "Home")
        let name = "Home"
        #expect(try context.fetch(FetchDescriptor<Car>(predicate: #Predicate { $0.garage?.name == name })).count == 1)
        context.delete(garage)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Vehicle>()) == 0)
    }

    @Test func aSubclassReadsItsValuesBeforeAndAfterInsertion() throws {
        let context = ModelContext(try ModelContainer(for: Schema(vehicleModels), configurations: [ModelConfiguration(isStoredInMemoryOnly: true)]))
        let car = Car(make: "Volvo", year: 2001, doors: 4)
        #expect(car.doors == 4 && car.make == "Volvo")
        car.doors = 5
        #expect(car.doors == 5 && car.trim == nil)
        context.insert(car)
        #expect(car.doors == 5 && car.year == 2001 && car.modelContext === context)
        let tracked = Counter()
        withObservationTracking { _ = car.doors; _ = car.make } onChange: { tracked.value += 1 }
        car.make = "Saab"
        #expect(tracked.value == 1)
        let truck = DumpTruck(make: "Scania", capacity: 3)
        truck.tipping = true
        context.insert(truck)
        try context.save()
        #expect(truck.tipping && truck.capacity == 3 && truck.year == 2020)
    }
}
