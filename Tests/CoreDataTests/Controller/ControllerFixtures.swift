@testable import CoreData
import Foundation
import Testing

/// The World Cup chapter's team, under a name no other test file uses.
final class WorldCupTeam: NSManagedObject {
    @Managed var teamName: String?
    @Managed var qualifyingZone: String?
    @Managed var imageName: String?
    @Managed var wins: Int32
}

/// Models for the controller tests.
enum ControllerModels {
    /// The World Cup app's single entity.
    static func worldCup() -> NSManagedObjectModel {
        NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Team", className: "WorldCupTeam", properties: [
                NSAttributeDescription(name: "teamName", type: .stringAttributeType),
                NSAttributeDescription(name: "qualifyingZone", type: .stringAttributeType),
                NSAttributeDescription(name: "imageName", type: .stringAttributeType),
                NSAttributeDescription(name: "wins", type: .integer32AttributeType),
            ]),
        ])
    }

    /// The relationship-refresh article's content items in buckets (a bucket's `colour` is
    /// a key no refresh path lists).
    static func buckets() -> NSManagedObjectModel {
        NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Content", properties: [
                NSAttributeDescription(name: "title", type: .stringAttributeType),
                NSAttributeDescription(name: "rank", type: .integer64AttributeType),
                NSRelationshipDescription(name: "bucket", destination: "Bucket", inverse: "contents"),
            ]),
            NSEntityDescription(name: "Bucket", properties: [
                NSAttributeDescription(name: "name", type: .stringAttributeType),
                NSAttributeDescription(name: "colour", type: .stringAttributeType),
                NSRelationshipDescription(name: "contents", destination: "Content", toMany: true, inverse: "bucket"),
            ]),
        ])
    }

    /// An "Inbox" bucket of `colour` holding three contents ranked 0, 1, 2, saved.
    @discardableResult
    static func savedInbox(in context: NSManagedObjectContext, colour: String? = nil) throws -> NSManagedObject {
        let inbox = NSEntityDescription.insertNewObject(forEntityName: "Bucket", into: context)
        inbox.setValue("Inbox", forKey: "name")
        inbox.setValue(colour, forKey: "colour")
        for rank in 0..<3 {
            let content = NSEntityDescription.insertNewObject(forEntityName: "Content", into: context)
            content.setValue("item \(rank)", forKey: "title")
            content.setValue(Int64(rank), forKey: "rank")
            content.setValue(inbox, forKey: "bucket")
        }
        try context.save()
        return inbox
    }

    /// 32 teams over six zones, no wins yet.
    static let teams: [(name: String, zone: String)] = [
        ("Algeria", "Africa"), ("Cameroon", "Africa"), ("Ghana", "Africa"), ("Ivory Coast", "Africa"), ("Nigeria", "Africa"),
        ("Australia", "Asia"), ("Iran", "Asia"), ("Japan", "Asia"), ("South Korea", "Asia"),
        ("Belgium", "Europe"), ("Bosnia", "Europe"), ("Croatia", "Europe"), ("England", "Europe"), ("France", "Europe"),
        ("Germany", "Europe"), ("Greece", "Europe"), ("Italy", "Europe"), ("Netherlands", "Europe"), ("Portugal", "Europe"),
        ("Russia", "Europe"), ("Spain", "Europe"), ("Switzerland", "Europe"),
        ("Costa Rica", "North, Central America & Caribbean"), ("Honduras", "North, Central America & Caribbean"),
        ("Mexico", "North, Central America & Caribbean"), ("USA", "North, Central America & Caribbean"),
        ("Argentina", "South America"), ("Brazil", "South America"), ("Chile", "South America"),
        ("Colombia", "South America"), ("Ecuador", "South America"), ("Uruguay", "South America"),
    ]
}

/// A container with the World Cup teams saved: in memory, in a SQLite file at `storeURL`, or
/// in a store of `type`.
@MainActor
func worldCupContainer(storeURL: URL? = nil, type: String? = nil) throws -> NSPersistentContainer {
    let container = try makeContainer(
        "WorldCup", model: ControllerModels.worldCup(), storeURL: storeURL,
        type: type ?? (storeURL == nil ? NSInMemoryStoreType : NSSQLiteStoreType))
    let context = container.viewContext
    for (name, zone) in ControllerModels.teams {
        let team = WorldCupTeam(context: context)
        team.teamName = name
        team.qualifyingZone = zone
        team.imageName = name.lowercased() + "-flag"
        team.wins = 0
    }
    try context.save()
    return container
}

/// The book's request: sections by zone, most wins first, then by name.
func worldCupRequest() -> NSFetchRequest<WorldCupTeam> {
    let request = NSFetchRequest<WorldCupTeam>(entityName: "Team")
    request.sortDescriptors = [
        NSSortDescriptor(key: "qualifyingZone", ascending: true),
        NSSortDescriptor(key: "wins", ascending: false),
        NSSortDescriptor(key: "teamName", ascending: true),
    ]
    return request
}

/// A table that applies the delegate's reports exactly as a table view's batch update would
/// (DESIGN.md §7), using the engine's replay checker, and remembers what it was told.
///
/// Its delegate methods are written with Apple's signatures, as the book's view controller.
final class TableRecorder: NSFetchedResultsControllerDelegate {
    typealias Table = ReplayChecker<ObjectIdentifier>.Table

    private(set) var table = Table(sections: [])
    private(set) var log: [String] = []
    private var pending = ChangeBatch<ObjectIdentifier>()
    private(set) var objectChanges: [(object: NSManagedObject, type: NSFetchedResultsChangeType, at: IndexPath?, new: IndexPath?)] = []
    private(set) var sectionChanges: [(name: String, index: Int, type: NSFetchedResultsChangeType)] = []
    private(set) var replayFailures: [String] = []
    private(set) var batches = 0

    /// Forgets the reports of earlier batches.
    func clearReports() {
        objectChanges = []
        sectionChanges = []
        log = []
    }

    /// Starts from the controller's current sections.
    func reset(from controller: NSFetchedResultsController<some Any>) {
        table = Self.table(of: controller)
    }

    /// A recorder that starts from the controller's current sections and is its delegate.
    static func attached(to controller: NSFetchedResultsController<some Any>) -> TableRecorder {
        let recorder = TableRecorder()
        recorder.reset(from: controller)
        controller.delegate = recorder
        return recorder
    }

    static func table(of controller: NSFetchedResultsController<some Any>) -> Table {
        Table(sections: (controller.sections ?? []).map { section in
            .init(name: section.name, ids: (section.objects ?? []).map { ObjectIdentifier($0 as AnyObject) })
        })
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        log.append("will")
        pending = ChangeBatch()
        objectChanges = []
        sectionChanges = []
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo, atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType) {
        log.append("section \(type) \(sectionIndex) \(sectionInfo.name)")
        sectionChanges.append((sectionInfo.name, sectionIndex, type))
        pending.sectionChanges.append(.init(kind: .init(rawValue: UInt8(type.rawValue))!, index: sectionIndex, name: sectionInfo.name))
    }

    func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any, at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?) {
        let object = anObject as! NSManagedObject
        log.append("object \(type) \(indexPath.map { "\($0)" } ?? "-") \(newIndexPath.map { "\($0)" } ?? "-")")
        objectChanges.append((object, type, indexPath, newIndexPath))
        let old = indexPath.map { RowAddress(section: $0.section, row: $0.row) }
        let new = newIndexPath.map { RowAddress(section: $0.section, row: $0.row) }
        pending.objectChanges.append(.init(
            id: ObjectIdentifier(object), kind: .init(rawValue: UInt8(type.rawValue))!,
            oldAddress: type == .insert ? nil : old, newAddress: type == .delete ? nil : new,
            contentChanged: type == .update))
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        log.append("did")
        batches += 1
        do {
            table = try ReplayChecker.replay(pending, onto: table)
        } catch {
            replayFailures.append("\(error)")
        }
    }
}
