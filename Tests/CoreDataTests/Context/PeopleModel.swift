import CoreData
import Foundation

/// People with unique names and their pets, and badges unique by (group, number): the model of
/// the uniqueness-constraint and cross-context tests.
enum PeopleModel {
    static func make() -> NSManagedObjectModel {
        let person = NSEntityDescription(name: "Person", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSAttributeDescription(name: "age", type: .integer64AttributeType),
            NSAttributeDescription(name: "nickname", type: .stringAttributeType),
            NSRelationshipDescription(name: "pets", destination: "Pet", toMany: true, inverse: "owner"),
        ])
        person.uniquenessConstraints = [["name"]]
        let pet = NSEntityDescription(name: "Pet", properties: [
            NSAttributeDescription(name: "name", type: .stringAttributeType),
            NSRelationshipDescription(name: "owner", destination: "Person", inverse: "pets"),
        ])
        let badge = NSEntityDescription(name: "Badge", properties: [
            NSAttributeDescription(name: "group", type: .stringAttributeType),
            NSAttributeDescription(name: "number", type: .integer64AttributeType),
            NSAttributeDescription(name: "label", type: .stringAttributeType),
        ])
        badge.uniquenessConstraints = [["group", "number"]]
        return NSManagedObjectModel(entities: [person, pet, badge])
    }
}

extension NSManagedObjectContext {
    /// Inserts a person (and optionally pets) with key-value coding.
    @discardableResult
    func insertPerson(_ name: String, age: Int64? = nil, nickname: String? = nil, pets: [String] = []) -> NSManagedObject {
        let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: self)
        person.setValue(name, forKey: "name")
        if let age { person.setValue(age, forKey: "age") }
        if let nickname { person.setValue(nickname, forKey: "nickname") }
        for petName in pets {
            let pet = NSEntityDescription.insertNewObject(forEntityName: "Pet", into: self)
            pet.setValue(petName, forKey: "name")
            pet.setValue(person, forKey: "owner")
        }
        return person
    }

    /// Every stored person as (name, age, nickname, pet names), sorted by name, read fresh.
    func storedPeople() throws -> [PersonRecord] {
        try performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            return try fetch(request).map { person in
                let pets = (person.value(forKey: "pets") as? NSSet)?.allObjects.compactMap { ($0 as? NSManagedObject)?.string("name") } ?? []
                return PersonRecord(name: person.string("name"), age: person.int64("age"), nickname: person.string("nickname"), pets: pets.sorted())
            }
        }
    }
}

struct PersonRecord: Equatable, CustomStringConvertible {
    var name: String?
    var age: Int64
    var nickname: String?
    var pets: [String] = []

    var description: String { "\(name ?? "nil")(\(age), \(nickname ?? "nil"), \(pets))" }
}
