import CoreData
import Foundation
import Testing

/// A class whose `@Managed` properties are bound once per class, used by entities of two
/// models that lay its properties out in different orders.
final class BindingProbe: NSManagedObject {
    @Managed var title: String?
    @Managed var count: Int64
    @Managed var partner: BindingProbe?
    @Managed var members: NSSet?
}

extension BindingProbe {
    @Managed("note") var remark: String?
}

/// A generic subclass: its `@Managed` properties find their slots by name.
final class GenericBindingProbe<Tag>: NSManagedObject {
    @Managed var title: String?
    @Managed var count: Int64
}

/// `@Managed` properties read and write the right slot whichever layout the object has, through
/// the binding the macro declares per class (or by name in a generic class).
@Suite struct ManagedPropertyBindingTests {
    let directory = TemporaryDirectory()

    /// `order` lists the properties in the order the entity declares them.
    static func model(_ order: [String]) -> NSManagedObjectModel {
        let properties: [String: NSPropertyDescription] = [
            "title": NSAttributeDescription(name: "title", type: .stringAttributeType),
            "count": NSAttributeDescription(name: "count", type: .integer64AttributeType),
            "note": NSAttributeDescription(name: "note", type: .stringAttributeType),
            "width": NSAttributeDescription(name: "width", type: .doubleAttributeType),
            "partner": NSRelationshipDescription(name: "partner", destination: "Probe"),
            "members": NSRelationshipDescription(name: "members", destination: "Probe", toMany: true),
        ]
        return NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Probe", className: "BindingProbe", properties: order.map { properties[$0]! }),
        ])
    }

    @Test func oneClassReadsAndWritesEntitiesOfTwoLayouts() throws {
        let first = try makeContainer("First", model: Self.model(["title", "count", "note", "partner", "members"]),
                                      storeURL: directory.file("First.sqlite"))
        let second = try makeContainer("Second", model: Self.model(["members", "width", "note", "partner", "count", "title"]),
                                       storeURL: directory.file("Second.sqlite"))
        let contexts = [first.newBackgroundContext(), second.newBackgroundContext()]
        // Alternate between the layouts, so each access finds the binding resolved for the other.
        var probes: [BindingProbe] = []
        for round in 0..<3 {
            for (number, context) in contexts.enumerated() {
                context.performAndWait {
                    let probe = BindingProbe(context: context)
                    probe.title = "probe \(number).\(round)"
                    probe.count = Int64(10 * number + round)
                    probe.remark = "note \(number)"
                    probes.append(probe)
                }
            }
        }
        for (position, probe) in probes.enumerated() {
            let number = position % 2, round = position / 2
            probe.managedObjectContext!.performAndWait {
                #expect(probe.title == "probe \(number).\(round)")
                #expect(probe.count == Int64(10 * number + round))
                #expect(probe.remark == "note \(number)")
                #expect(probe.value(forKey: "title") as? String == "probe \(number).\(round)")
                #expect(probe.value(forKey: "note") as? String == "note \(number)")
            }
        }
        for context in contexts {
            try context.performAndWait { try context.save() }
        }
        for (number, container) in [first, second].enumerated() {
            let reader = container.newBackgroundContext()
            try reader.performAndWait {
                let fetched = try reader.fetch(NSFetchRequest<BindingProbe>(entityName: "Probe"))
                #expect(Set(fetched.map(\.count)) == Set((0..<3).map { Int64(10 * number + $0) }))
                #expect(Set(fetched.compactMap(\.title)) == Set((0..<3).map { "probe \(number).\($0)" }))
            }
        }
    }

    @Test func relationshipsReadThroughTheBindingMatchKeyValueCoding() throws {
        for order in [["title", "count", "note", "partner", "members"], ["members", "width", "note", "partner", "count", "title"]] {
            let container = try makeContainer("Probes", model: Self.model(order), storeURL: directory.file("Probes-\(order.count).sqlite"))
            let writer = container.newBackgroundContext()
            try writer.performAndWait {
                let owner = BindingProbe(context: writer)
                owner.title = "owner"
                #expect(owner.partner == nil)
                #expect(owner.members?.count == 0)
                let partner = BindingProbe(context: writer)
                partner.title = "partner"
                owner.partner = partner
                owner.members = NSSet(array: [partner, owner])
                #expect(owner.partner === partner)
                #expect(Set((owner.members?.allObjects ?? []).map { ObjectIdentifier($0 as AnyObject) }) == [ObjectIdentifier(owner), ObjectIdentifier(partner)])
                try writer.save()
            }
            let reader = container.newBackgroundContext()
            try reader.performAndWait {
                let request = NSFetchRequest<BindingProbe>(entityName: "Probe")
                request.predicate = NSPredicate(format: "title == %@", "owner")
                let owner = try #require(try reader.fetch(request).first)
                #expect(owner.partner?.title == "partner")
                #expect(owner.partner === owner.value(forKey: "partner") as? BindingProbe)
                #expect(Set((owner.members?.allObjects as? [BindingProbe] ?? []).compactMap(\.title)) == ["owner", "partner"])
                owner.partner = nil
                #expect(owner.partner == nil)
                #expect(owner.value(forKey: "partner") == nil)
            }
        }
    }

    @Test func aGenericSubclassFindsItsSlotsByName() throws {
        let model = NSManagedObjectModel(entities: [
            NSEntityDescription(name: "Probe", properties: [
                NSAttributeDescription(name: "count", type: .integer64AttributeType),
                NSAttributeDescription(name: "title", type: .stringAttributeType),
            ]),
        ])
        let container = try makeContainer("Generic", model: model, storeURL: directory.file("Generic.sqlite"))
        let context = container.newBackgroundContext()
        context.performAndWait {
            let entity = container.managedObjectModel.entitiesByName["Probe"]!
            let probe = GenericBindingProbe<Int>(entity: entity, insertInto: context)
            #expect(probe.title == nil)
            #expect(probe.count == 0)
            probe.title = "generic"
            probe.count = 7
            #expect(probe.title == "generic")
            #expect(probe.count == 7)
            #expect((probe.value(forKey: "count") as? NSNumber)?.int64Value == 7)
        }
    }
}
