import Foundation
import SwiftData

/// A model hierarchy, as SwiftData has allowed since iOS 26: a base class, a final subclass, a
/// subclass that is itself subclassed, and a model whose relationship holds the base type.
@Model
class Vehicle {
    var make: String
    var year: Int
    var garage: Garage?

    init(make: String, year: Int) {
        self.make = make
        self.year = year
    }
}

@Model
final class Car: Vehicle {
    var doors: Int
    var trim: Trim?

    init(make: String, year: Int, doors: Int) {
        self.doors = doors
        super.init(make: make, year: year)
    }

    enum Trim: String, Codable {
        case base, sport
    }
}

@Model
class Truck: Vehicle {
    var capacity: Double

    init(make: String, year: Int, capacity: Double) {
        self.capacity = capacity
        super.init(make: make, year: year)
    }
}

@Model
final class DumpTruck: Truck {
    var tipping = false

    init(make: String, capacity: Double) {
        super.init(make: make, year: 2020, capacity: capacity)
    }
}

@Model
final class Garage {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Vehicle.garage) var vehicles: [Vehicle] = []

    init(name: String) {
        self.name = name
    }
}

/// Every model of the hierarchy, for containers.
var vehicleModels: [any PersistentModel.Type] { [Vehicle.self, Car.self, Truck.self, DumpTruck.self, Garage.self] }
