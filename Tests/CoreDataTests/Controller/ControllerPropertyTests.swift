@testable import CoreData
import Foundation
import Testing

/// Random inserts, deletes, edits and saves through a real context: after every change the
/// table built from the delegate's reports equals the controller's sections, which equal a
/// fresh fetch, and only touched objects are ever reported.
@MainActor @Suite struct ControllerPropertyTests {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["FRC_SEED"].flatMap(UInt64.init)
        ?? UInt64.random(in: 1...UInt64.max)

    enum Shape: CaseIterable {
        case sectionedByZone
        case filteredByWins
        case unsectioned
    }

    @Test(arguments: Shape.allCases, [NSInMemoryStoreType, NSBinaryStoreType, DictionaryStore.type])
    func reportsReplayToAFreshFetch(shape: Shape, storeType: String) throws {
        var random = SplitMix64(seed: Self.seed)
        let directory = TemporaryDirectory()
        let container = try worldCupContainer(storeURL: storeType == NSBinaryStoreType ? directory.file("WorldCup.binary") : nil, type: storeType)
        let context = container.viewContext
        let request = worldCupRequest()
        if shape == .filteredByWins { request.predicate = NSPredicate(format: "wins < 3") }
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: shape == .unsectioned ? nil : "qualifyingZone", cacheName: nil)
        try controller.performFetch()
        let recorder = TableRecorder()
        recorder.reset(from: controller)
        controller.delegate = recorder
        let zones = ["Africa", "Asia", "Europe", "Internets", "Oceania", "South America"]
        var serial = 0

        for step in 0..<150 {
            let context_ = "seed \(Self.seed) step \(step) shape \(shape) store \(storeType)"
            var touched = Set<ObjectIdentifier>()
            recorder.clearReports()
            let teams = try context.fetch(NSFetchRequest<WorldCupTeam>(entityName: "Team"))
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let team = teams.randomElement(using: &random)
                switch Int.random(in: 0..<7, using: &random) {
                case 0:
                    let new = WorldCupTeam(context: context)
                    new.teamName = "Team \(serial)"
                    serial += 1
                    new.qualifyingZone = zones.randomElement(using: &random)
                    new.wins = Int32.random(in: 0..<4, using: &random)
                    touched.insert(ObjectIdentifier(new))
                case 1:
                    guard let team, !team.isDeleted else { continue }
                    context.delete(team)
                    touched.insert(ObjectIdentifier(team))
                case 2, 3:
                    guard let team, !team.isDeleted else { continue }
                    team.wins = Int32.random(in: 0..<4, using: &random)
                    touched.insert(ObjectIdentifier(team))
                case 4:
                    guard let team, !team.isDeleted else { continue }
                    team.qualifyingZone = zones.randomElement(using: &random)
                    touched.insert(ObjectIdentifier(team))
                case 5:
                    guard let team, !team.isDeleted else { continue }
                    team.imageName = "flag \(Int.random(in: 0..<100, using: &random))"
                    touched.insert(ObjectIdentifier(team))
                default:
                    guard let team, !team.isDeleted else { continue }
                    team.teamName = (team.teamName ?? "") + "!"
                    touched.insert(ObjectIdentifier(team))
                }
            }
            if Bool.random(using: &random) { try context.save() } else { context.processPendingChanges() }
            if Int.random(in: 0..<5, using: &random) == 0 {
                // Another context edits saved teams; its save is merged in.
                try context.save()
                let names = teams.filter { !$0.isDeleted && $0.managedObjectContext != nil }.compactMap(\.teamName)
                let picks = (0..<3).compactMap { _ in names.randomElement(using: &random) }
                let wins = (0..<3).map { _ in Int32.random(in: 0..<4, using: &random) }
                let zone = zones.randomElement(using: &random)!
                let doomed = Bool.random(using: &random)
                // A merged delete reports the object this context held for the deleted team.
                if doomed, let victim = teams.first(where: { $0.teamName == picks.last && !$0.isDeleted }) {
                    touched.insert(ObjectIdentifier(victim))
                }
                let notification = try backgroundSave(in: container) { background in
                    let all = try background.fetch(NSFetchRequest<WorldCupTeam>(entityName: "Team"))
                    for (name, win) in zip(picks, wins) {
                        all.first { $0.teamName == name }?.wins = win
                    }
                    all.first { $0.teamName == picks.first }?.qualifyingZone = zone
                    if doomed, let victim = all.first(where: { $0.teamName == picks.last }) { background.delete(victim) }
                    let newcomer = WorldCupTeam(context: background)
                    newcomer.teamName = "Merged \(serial)"
                    newcomer.qualifyingZone = zone
                }
                serial += 1
                context.mergeChanges(fromContextDidSave: notification)
                for name in picks + ["Merged \(serial - 1)"] {
                    if let team = try context.fetch(NSFetchRequest<WorldCupTeam>(entityName: "Team")).first(where: { $0.teamName == name }) {
                        touched.insert(ObjectIdentifier(team))
                    }
                }
            }

            #expect(recorder.replayFailures.isEmpty, "\(recorder.replayFailures) \(context_)")
            guard recorder.replayFailures.isEmpty else { return }
            let controllerTable = TableRecorder.table(of: controller)
            #expect(recorder.table == controllerTable, "replay ≠ controller; \(context_)")
            let fresh = try context.fetch(request)
            #expect(controllerTable.ids == fresh.map { ObjectIdentifier($0) }, "controller ≠ fresh fetch; \(context_)")
            guard controllerTable.ids == fresh.map({ ObjectIdentifier($0) }) else { return }
            let reported = Set(recorder.objectChanges.map { ObjectIdentifier($0.object) })
            #expect(reported.isSubset(of: touched), "untouched object reported; \(context_)")
            guard recorder.table == controllerTable else { return }
        }
    }
}

/// Runs `body` in a new background context, saves, and returns the did-save notification.
@MainActor
func backgroundSave(in container: NSPersistentContainer, _ body: @escaping (NSManagedObjectContext) throws -> Void) throws -> Notification {
    let background = container.newBackgroundContext()
    let saved = SavedNotification()
    let observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: background, queue: nil) {
        saved.notification = $0
    }
    defer { NotificationCenter.default.removeObserver(observer) }
    try background.performAndWait {
        try body(background)
        try background.save()
    }
    return try #require(saved.notification)
}
