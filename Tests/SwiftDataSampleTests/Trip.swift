// A model file in the style of Apple's SwiftData sample apps (a trip planner), written for this
// package's tests: it must compile here unchanged, as it would in an app for Apple platforms.
import Foundation
import SwiftData

@Model
final class Trip {
    #Unique<Trip>([\.name, \.startDate, \.endDate])
    #Index<Trip>([\.name], [\.startDate], [\.endDate], [\.name, \.startDate, \.endDate])

    @Attribute(.preserveValueOnDeletion)
    var name: String
    var destination: String

    @Attribute(.preserveValueOnDeletion)
    var startDate: Date

    @Attribute(.preserveValueOnDeletion)
    var endDate: Date

    @Relationship(deleteRule: .cascade, inverse: \BucketListItem.trip)
    var bucketList: [BucketListItem] = [BucketListItem]()

    @Relationship(deleteRule: .cascade, inverse: \LivingAccommodation.trip)
    var livingAccommodation: LivingAccommodation?

    var isFavorite: Bool = false

    init(name: String, destination: String, startDate: Date = .now, endDate: Date = .distantFuture) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.endDate = endDate
    }
}

extension Trip {
    var displayName: String {
        name.isEmpty ? "Untitled Trip" : name
    }

    var tripDuration: Int {
        Calendar.current.dateComponents([.day], from: startDate, to: endDate).day ?? 0
    }

    var plannedItemCount: Int {
        bucketList.filter(\.isInPlan).count
    }

    static func predicate(searchText: String, between start: Date, and end: Date) -> Predicate<Trip> {
        #Predicate<Trip> { trip in
            trip.name.localizedStandardContains(searchText) && trip.startDate < end && trip.endDate > start
        }
    }

    static var preview: Trip {
        Trip(name: "Weekend in the hills", destination: "Sintra",
             startDate: .now, endDate: .now.addingTimeInterval(2 * 24 * 3600))
    }
}
