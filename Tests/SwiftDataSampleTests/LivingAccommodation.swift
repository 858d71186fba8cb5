import Foundation
import SwiftData

@Model
final class LivingAccommodation {
    var address: String
    var placeName: String

    @Attribute(.externalStorage)
    var photo: Data?

    var trip: Trip?

    init(address: String, placeName: String, photo: Data? = nil) {
        self.address = address
        self.placeName = placeName
        self.photo = photo
    }
}
