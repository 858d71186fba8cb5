import CoreData

/// The chapter's venue and the objects it owns.
final class Venue: NSManagedObject {
    @Managed var id: String?
    @Managed var name: String?
    @Managed var phone: String?
    @Managed var favorite: Bool
    @Managed var specialCount: Int32
    @Managed var category: Category?
    @Managed var location: Location?
    @Managed var priceInfo: PriceInfo?
    @Managed var stats: Stats?
}

final class Category: NSManagedObject {
    @Managed var categoryID: String?
    @Managed var name: String?
}

final class Location: NSManagedObject {
    @Managed var address: String?
    @Managed var city: String?
    @Managed var state: String?
    @Managed var zipcode: String?
    @Managed var country: String?
    @Managed var distance: Float
}

final class PriceInfo: NSManagedObject {
    @Managed var priceCategory: String?
}

final class Stats: NSManagedObject {
    @Managed var checkinsCount: Int32
    @Managed var usersCount: Int32
    @Managed var tipCount: Int32
}

/// The seed file's layout (a search API response): only the fields the app keeps.
struct SeedResponse: Decodable {
    struct Body: Decodable { let venues: [SeedVenue] }
    let response: Body
}

struct SeedVenue: Decodable {
    struct Contact: Decodable { let phone: String? }
    struct Place: Decodable {
        let address: String?, city: String?, state: String?, postalCode: String?, country: String?
        let distance: Float?
    }
    struct Kind: Decodable { let id: String; let name: String }
    struct Price: Decodable { let currency: String }
    struct Counts: Decodable { let checkinsCount: Int32; let usersCount: Int32; let tipCount: Int32 }
    struct Specials: Decodable { let count: Int32 }

    let id: String
    let name: String
    let contact: Contact?
    let location: Place?
    let categories: [Kind]
    let price: Price?
    let stats: Counts?
    let specials: Specials?
}
