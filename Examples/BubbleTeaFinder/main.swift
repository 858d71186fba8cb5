// Bubble Tea Finder (chapter 4): counts, sums, filters and sorts done by the store, an
// asynchronous fetch, and a batch update.
import CoreData
import ExampleSupport

let usage = """
usage: bubbletea [--store PATH] [--script FILE]
commands:
  list                      the venues, filtered and sorted
  filter <name>             cheap, moderate, expensive, deals, walking, tips, or none
  sort <name>               name, name-desc, distance, price, or none
  counts                    venues per price category (three ways of counting)
  deals                     the total number of deals, summed by the store
  async                     the venue list by an asynchronous fetch
  favorite-all              marks every venue a favourite with one batch update
  favorites                 the favourite venues
  quit
"""
let options = ExampleOptions(usage: usage)
let container = ExampleStore.open(name: "BubbleTeaFinder", options: options)
let context = container.viewContext

let filters: [String: NSPredicate] = [
    "cheap": NSPredicate(format: "%K == %@", "priceInfo.priceCategory", "$"),
    "moderate": NSPredicate(format: "%K == %@", "priceInfo.priceCategory", "$$"),
    "expensive": NSPredicate(format: "%K == %@", "priceInfo.priceCategory", "$$$"),
    "deals": NSPredicate(format: "%K > 0", "specialCount"),
    "walking": NSPredicate(format: "%K < 500", "location.distance"),
    "tips": NSPredicate(format: "%K > 0", "stats.tipCount"),
]
let sorts: [String: NSSortDescriptor] = [
    "name": NSSortDescriptor(key: "name", ascending: true, selector: Selector("localizedStandardCompare:")),
    "name-desc": NSSortDescriptor(key: "name", ascending: true, selector: Selector("localizedStandardCompare:")).reversedSortDescriptor as! NSSortDescriptor,
    "distance": NSSortDescriptor(key: "location.distance", ascending: true),
    "price": NSSortDescriptor(key: "priceInfo.priceCategory", ascending: true),
]

/// Imports the seed file on first launch.
@MainActor func importSeedIfEmpty() throws {
    guard try context.count(for: NSFetchRequest<Venue>(entityName: "Venue")) == 0 else { return }
    guard let url = ExampleStore.resource("seed.json", bundle: .module) else {
        throw CommandError("the seed file seed.json is missing from the program's resources")
    }
    for seed in try JSONDecoder().decode(SeedResponse.self, from: Data(contentsOf: url)).response.venues {
        let venue = Venue(context: context)
        venue.id = seed.id
        venue.name = seed.name
        venue.phone = seed.contact?.phone
        venue.specialCount = seed.specials?.count ?? 0
        let location = Location(context: context)
        location.address = seed.location?.address
        location.city = seed.location?.city
        location.state = seed.location?.state
        location.zipcode = seed.location?.postalCode
        location.country = seed.location?.country
        location.distance = seed.location?.distance ?? 0
        venue.location = location
        if let kind = seed.categories.first {
            let category = Category(context: context)
            category.categoryID = kind.id
            category.name = kind.name
            venue.category = category
        }
        let price = PriceInfo(context: context)
        price.priceCategory = seed.price?.currency
        venue.priceInfo = price
        let stats = Stats(context: context)
        stats.checkinsCount = seed.stats?.checkinsCount ?? 0
        stats.usersCount = seed.stats?.usersCount ?? 0
        stats.tipCount = seed.stats?.tipCount ?? 0
        venue.stats = stats
    }
    try context.save()
}

/// One line per venue, as the chapter's table cell shows it.
func line(_ venue: Venue) -> String {
    let price = venue.priceInfo?.priceCategory ?? "?"
    return "\(venue.name ?? "?") | \(price) | \(Int(venue.location?.distance ?? 0)) m | \(venue.specialCount) deals | \(venue.stats?.tipCount ?? 0) tips\(venue.favorite ? " | favourite" : "")"
}

@MainActor func currentRequest(filter: String?, sort: String?) -> NSFetchRequest<Venue> {
    let request = NSFetchRequest<Venue>(entityName: "Venue")
    request.predicate = filter.flatMap { filters[$0] }
    request.sortDescriptors = sort.flatMap { sorts[$0] }.map { [$0] }
    return request
}

/// Counts the venues of one price category: each category uses a different way of counting,
/// as the chapter does, and all three run as SQL COUNTs.
@MainActor func counts() throws -> [String] {
    let cheap = NSFetchRequest<NSNumber>(entityName: "Venue")
    cheap.resultType = .countResultType
    cheap.predicate = filters["cheap"]
    let cheapCount = try context.fetch(cheap).first?.intValue ?? 0

    let moderate = NSFetchRequest<Venue>(entityName: "Venue")
    moderate.predicate = filters["moderate"]
    let moderateCount = try context.count(for: moderate)

    let expensive = NSFetchRequest<NSDictionary>(entityName: "Venue")
    expensive.resultType = .dictionaryResultType
    expensive.predicate = filters["expensive"]
    let counted = NSExpressionDescription()
    counted.name = "venues"
    counted.expression = NSExpression(forFunction: "count:", arguments: [NSExpression(forKeyPath: "name")])
    counted.expressionResultType = .integer32AttributeType
    expensive.propertiesToFetch = [counted]
    let expensiveCount = (try context.fetch(expensive).first?["venues"] as? NSNumber)?.intValue ?? 0

    return [
        "$: \(cheapCount) bubble tea places (count result type)",
        "$$: \(moderateCount) bubble tea places (count(for:))",
        "$$$: \(expensiveCount) bubble tea places (count: expression)",
    ]
}

/// The total of deals, summed in SQL.
@MainActor func totalDeals() throws -> Int {
    let request = NSFetchRequest<NSDictionary>(entityName: "Venue")
    request.resultType = .dictionaryResultType
    let sum = NSExpressionDescription()
    sum.name = "sumDeals"
    sum.expression = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "specialCount")])
    sum.expressionResultType = .integer32AttributeType
    request.propertiesToFetch = [sum]
    return (try context.fetch(request).first?["sumDeals"] as? NSNumber)?.intValue ?? 0
}

/// Fetches the list on a private queue with an asynchronous fetch and waits for its completion.
func asynchronousList(sortedBy sort: NSSortDescriptor?) throws -> [String] {
    let background = container.newBackgroundContext()
    let request = NSFetchRequest<Venue>(entityName: "Venue")
    request.sortDescriptors = sort.map { [$0] }
    let done = DispatchSemaphore(value: 0)
    let collected = LinesBox()
    let asyncFetch = NSAsynchronousFetchRequest(fetchRequest: request) { result in
        collected.lines = (result.finalResult ?? []).map(line)
        collected.error = result.operationError
        done.signal()
    }
    _ = try background.execute(asyncFetch)
    done.wait()
    if let error = collected.error { throw error }
    return collected.lines
}

/// Lines gathered on the fetch's queue and read after its completion signalled.
final class LinesBox: @unchecked Sendable {
    var lines: [String] = []
    var error: Error?
}

do {
    try importSeedIfEmpty()
    var filter: String?
    var sort: String? = "name"
    let loop = try CommandLoop(options: options)
    loop.run(prompt: "bubbletea>") { command in
        switch command.name {
        case "list":
            let venues = try context.fetch(currentRequest(filter: filter, sort: sort))
            print("\(venues.count) venues" + (filter.map { ", filter \($0)" } ?? "") + (sort.map { ", sorted by \($0)" } ?? ""))
            for venue in venues { print("  " + line(venue)) }
        case "filter":
            guard command.rest == "none" || filters[command.rest] != nil else {
                throw CommandError("unknown filter '\(command.rest)'; try \(filters.keys.sorted().joined(separator: ", ")), none")
            }
            filter = command.rest == "none" ? nil : command.rest
            print("filter: \(filter ?? "none"), \(try context.count(for: currentRequest(filter: filter, sort: nil))) venues")
        case "sort":
            guard command.rest == "none" || sorts[command.rest] != nil else {
                throw CommandError("unknown sort '\(command.rest)'; try \(sorts.keys.sorted().joined(separator: ", ")), none")
            }
            sort = command.rest == "none" ? nil : command.rest
            print("sort: \(sort ?? "none")")
        case "counts":
            for text in try counts() { print(text) }
        case "deals":
            print("\(try totalDeals()) total deals")
        case "async":
            let lines = try asynchronousList(sortedBy: sort.flatMap { sorts[$0] })
            print("\(lines.count) venues by asynchronous fetch")
            for text in lines { print("  " + text) }
        case "favorite-all", "favourite-all":
            let update = NSBatchUpdateRequest(entityName: "Venue")
            update.propertiesToUpdate = ["favorite": true]
            update.resultType = .updatedObjectIDsResultType
            let result = try context.execute(update) as? NSBatchUpdateResult
            let ids = result?.result as? [NSManagedObjectID] ?? []
            NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [context])
            print("Records updated \(ids.count)")
        case "favorites", "favourites":
            let request = currentRequest(filter: nil, sort: "name")
            request.predicate = NSPredicate(format: "favorite == YES")
            let venues = try context.fetch(request)
            print("\(venues.count) favourite venues")
            for venue in venues { print("  " + line(venue)) }
        default:
            throw CommandError("unknown command '\(command.name)'; try list, filter, sort, counts, deals, async, favorite-all, favorites, quit")
        }
        return true
    }
} catch {
    print("error: \(CommandLoop.message(for: error))")
    exit(1)
}
