import CoreData
import Foundation
import SwiftData

/// A sum over every attribute of a SwiftData team, as `checksum(_:)` for Core Data's.
@inline(__always)
func checksum(_ team: SwiftDataStack.Team) -> Double {
    checksum(name: team.name, zone: team.zone, wins: team.wins, score: team.score, date: team.date.timeIntervalSinceReferenceDate)
}

/// SwiftData against the same work through Core Data, on the same layout: what the SwiftData
/// layer (`@Model` accessors, model wrappers, `#Predicate` translation) costs over Core Data.
extension BenchmarkCase {
    nonisolated(unsafe) static let swiftDataInsert = BenchmarkCase(
        id: "sd-insert",
        title: "SwiftData insert + save",
        explanation: "Inserts every team as a `@Model` and saves once into a new store file; Core Data does the same with persistent history on, which SwiftData stores always record, on a private-queue context as a `ModelContext` is (both let go of the saved objects nobody holds as the save ends).",
        targets: [Target(statement: "SwiftData insert+save within 1.15x of Core Data", subject: "SwiftData", base: "CoreData", limit: 1.15)]
    ) { env in
        let data = env.data
        let rows = env.rows
        return [
            CoreDataVariants.insertOnPrivateQueue(rows: rows, of: data) {
                try CoreDataStack.container(at: env.storeURL("sd-insert-coredata"), options: CoreDataStack.historyOptions)
            },
            Variant(label: "SwiftData", role: .swiftData) {
                let context = ModelContext(try SwiftDataStack.container(at: env.storeURL("sd-insert-swiftdata")))
                let elapsed = try Stopwatch.milliseconds {
                    for index in 0..<rows { context.insert(SwiftDataStack.Team(data, index)) }
                    try context.save()
                }
                drainMainQueue()
                return elapsed
            },
        ]
    }

    nonisolated(unsafe) static let swiftDataFetch = BenchmarkCase(
        id: "sd-fetch",
        title: "SwiftData fetch all, materialised",
        explanation: "Fetches every team through a `FetchDescriptor` and reads all five attributes of each; Core Data fetches them materialised (`returnsObjectsAsFaults = false`).",
        targets: [Target(statement: "SwiftData materialised fetch within 1.15x of Core Data", subject: "SwiftData", base: "CoreData", limit: 1.15)]
    ) { env in
        let models = try SwiftDataStack.populatedContainer(env.storeURL("sd-fetch-swiftdata"), data: env.data, rows: env.rows)
        let objects = try StoreFiles.populatedStore(env.storeURL("sd-fetch-coredata"), data: env.data, rows: env.rows)
        return [
            CoreDataVariants.fetchObjects(objects),
            Variant(label: "SwiftData", role: .swiftData) {
                let context = ModelContext(models)
                return try Stopwatch.milliseconds {
                    var sum = 0.0
                    for team in try context.fetch(FetchDescriptor<SwiftDataStack.Team>()) { sum += checksum(team) }
                    consume(sum)
                }
            },
        ]
    }

    nonisolated(unsafe) static let swiftDataPredicate = BenchmarkCase(
        id: "sd-predicate",
        title: "SwiftData #Predicate fetch, 2 sort keys",
        explanation: "Fetches the teams `#Predicate { $0.wins >= 500 && $0.zone != \"Zone 03\" }` matches (about half), sorted by zone then score descending, and reads one attribute of each; Core Data runs the same `NSPredicate` and sort.",
        targets: [Target(statement: "SwiftData #Predicate fetch within 1.15x of Core Data", subject: "SwiftData", base: "CoreData", limit: 1.15)]
    ) { env in
        let models = try SwiftDataStack.populatedContainer(env.storeURL("sd-predicate-swiftdata"), data: env.data, rows: env.rows)
        let objects = try StoreFiles.populatedStore(env.storeURL("sd-predicate-coredata"), data: env.data, rows: env.rows)
        return [
            CoreDataVariants.fetchFiltered(objects),
            Variant(label: "SwiftData", role: .swiftData) {
                let context = ModelContext(models)
                let descriptor = FetchDescriptor(predicate: SwiftDataStack.filteredPredicate,
                                                 sortBy: [SortDescriptor(\.zone), SortDescriptor(\.score, order: .reverse)])
                return try Stopwatch.milliseconds {
                    var sum = 0.0
                    for team in try context.fetch(descriptor) { sum += team.score }
                    consume(sum)
                }
            },
        ]
    }
}
