import Foundation
import SwiftData

/// The models the suites use: a trip with stops (cascade), a unique name, an enum, a Codable
/// value, optionals, and a transient property.
@Model
final class Trip {
    #Unique<Trip>([\.name])
    #Index<Trip>([\.start], [\.name, \.start])

    var name: String
    var start: Date
    var budget: Decimal
    var nights: Int
    var rating: Double?
    var kind: Kind
    var tags: [String]
    var place: Place?
    var identifier: UUID
    var website: URL?
    var photo: Data?
    @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
    @Transient var viewCount = 0

    init(name: String, start: Date = Date(timeIntervalSinceReferenceDate: 0), nights: Int = 1, kind: Kind = .leisure) {
        self.name = name
        self.start = start
        self.budget = 100
        self.nights = nights
        self.kind = kind
        self.tags = []
        self.identifier = UUID()
    }

    enum Kind: String, Codable {
        case leisure, business
    }

    struct Place: Codable, Hashable {
        var city: String
        var country: String
    }
}

@Model
final class Stop {
    var title: String
    var order: Int
    var trip: Trip?

    init(title: String, order: Int) {
        self.title = title
        self.order = order
    }
}

/// A compound uniqueness constraint.
@Model
final class Seat {
    #Unique<Seat>([\.flight, \.number])
    var flight: String
    var number: String
    var passenger: String

    init(flight: String, number: String, passenger: String) {
        self.flight = flight
        self.number = number
        self.passenger = passenger
    }
}
