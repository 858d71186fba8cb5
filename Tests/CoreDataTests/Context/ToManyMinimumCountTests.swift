import CoreData
import Foundation
import Testing

/// Apple's rule for to-many counts: only `minCount` and `maxCount` are enforced; a non-optional
/// to-many relationship with no minimum may be empty.
@Suite struct ToManyMinimumCountTests {
    let directory = TemporaryDirectory()

    func container(minCount: Int, optional: Bool) throws -> NSPersistentContainer {
        let members = NSRelationshipDescription(name: "members", destination: "Member", toMany: true, inverse: "team", optional: optional)
        members.minCount = minCount
        let model = NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Team", properties: [NSAttributeDescription(name: "name", type: .stringAttributeType), members]),
            NSEntityDescription(name: "Member", properties: [NSRelationshipDescription(name: "team", destination: "Team", inverse: "members")]),
        ])
        return try makeContainer(model: model, storeURL: directory.file("Teams.sqlite"))
    }

    func saveTeam(members: Int, in container: NSPersistentContainer) -> NSError? {
        let context = container.newBackgroundContext()
        return context.performAndWait {
            let team = NSEntityDescription.insertNewObject(forEntityName: "Team", into: context)
            for _ in 0..<members {
                NSEntityDescription.insertNewObject(forEntityName: "Member", into: context).setValue(team, forKey: "team")
            }
            do { try context.save(); return nil } catch { return error as NSError }
        }
    }

    @Test func anEmptyNonOptionalToManyWithoutMinimumCountSaves() throws {
        #expect(saveTeam(members: 0, in: try container(minCount: 0, optional: false)) == nil)
    }

    @Test func aNonOptionalToManyBelowItsMinimumCountThrows1580() throws {
        let container = try container(minCount: 2, optional: false)
        #expect(saveTeam(members: 1, in: container)?.code == NSValidationRelationshipLacksMinimumCountError)
        #expect(saveTeam(members: 0, in: container)?.code == NSValidationRelationshipLacksMinimumCountError)
        #expect(saveTeam(members: 2, in: container) == nil)
    }

    @Test func anOptionalToManyMayBeEmptyWhateverItsMinimum() throws {
        let container = try container(minCount: 2, optional: true)
        #expect(saveTeam(members: 0, in: container) == nil)
        #expect(saveTeam(members: 1, in: container)?.code == NSValidationRelationshipLacksMinimumCountError)
    }
}
