import CoreData
import Foundation

/// Random unsaved changes made twice over: to a saved data set's managed objects through the
/// public API (`setValue`, `mutableSetValue`, `insertNewObject`, `delete`), and to a plain
/// copy of its rows, so a reference filter can judge what the context holds now.
///
/// Deletes come first and are processed (delete rules run) before the edits, so an edit never
/// touches an object deleted in the same batch. Every change is recorded on the rows it
/// affects, including the inverse side of a relationship and the nullified side of a delete:
/// `changedPeople` is then exactly the people a fetch must judge by their unsaved state.
@MainActor final class PendingQueryChanges {
    typealias Row = QueryTestRow

    /// The rows as the context holds them now: deletes gone, inserts present, to-many
    /// relationships recomputed from their to-one and many-to-many sides.
    private(set) var current: [String: [Row]] = [:]
    /// People inserted, or saved ones with any unsaved change, by primary key.
    private(set) var changedPeople: Set<Int64> = []
    private(set) var insertedPeople: Set<Int64> = []
    private(set) var deletedPeople: Set<Int64> = []

    private let data: ManagedQueryDataSet
    private var all: [String: [Row]]
    private var deleted: Set<Int64> = []
    private var movedItems: Set<Int64> = []
    private var random: SplitMix64
    private var nextKey: Int64 = 100_000
    private var nextSerial: Int64 = 1_000

    static let personAttributes = ["name", "nick", "age", "score", "born", "active"]

    /// Copies `saved` (sharing nothing with it) and changes the copy and `data` alike.
    init(_ data: ManagedQueryDataSet, saved: [String: [Row]], seed: UInt64) {
        self.data = data
        self.all = Self.copy(saved)
        self.random = SplitMix64(seed: seed)
        makeDeletes()
        data.context.processPendingChanges()
        makeEdits()
        makeInserts()
        editRelatedObjects()
        data.context.processPendingChanges()
        current = all.mapValues { $0.filter { !deleted.contains($0.primaryKey) } }
        recomputeInverses()
        changedPeople.subtract(deletedPeople)
    }

    static func copy(_ rows: [String: [Row]]) -> [String: [Row]] {
        var copies: [Int64: Row] = [:]
        for row in rows.values.joined() {
            copies[row.primaryKey] = Row(entity: row.describedEntity, primaryKey: row.primaryKey, store: row.objectID.persistentStore!)
        }
        for row in rows.values.joined() {
            copies[row.primaryKey]!.values = row.values.mapValues { value in
                switch value {
                case let target as Row: copies[target.primaryKey]!
                case let members as [Row]: members.map { copies[$0.primaryKey]! }
                default: value
                }
            }
        }
        return rows.mapValues { $0.map { copies[$0.primaryKey]! } }
    }

    // MARK: Changes

    private func live(_ entity: String) -> [Row] { all[entity]!.filter { !deleted.contains($0.primaryKey) } }
    private func owner(of item: Row) -> Row? { item.values["owner"] as? Row }
    private func liveItems(of person: Row) -> [Row] { live("Item").filter { QueryCases.same(owner(of: $0), person) } }
    private func groups(of person: Row) -> [Row] { person.values["groups"] as? [Row] ?? [] }

    private func set(_ row: Row, _ key: String, _ value: Any?) {
        row.values[key] = value
        let object = data.object(for: row)
        switch value {
        case let target as Row: object.setValue(data.object(for: target), forKey: key)
        default: object.setValue(value, forKey: key)
        }
    }

    private func delete(_ row: Row) {
        deleted.insert(row.primaryKey)
        data.context.delete(data.object(for: row))
    }

    /// A random value of an attribute, drawn as `QueryTestDatabase` draws its rows' values.
    private func randomValue(_ key: String) -> Any? {
        guard random.next(below: 6) != 0 else { return nil }
        switch key {
        case "age": return NSNumber(value: Int64(random.next(below: 80)) - 10)
        case "score": return NSNumber(value: Double(random.next(below: 200)) / 8 - 5)
        case "born": return Date(timeIntervalSinceReferenceDate: Double(random.next(below: 1000)) * 86400)
        case "active": return NSNumber(value: random.next(below: 2) == 1)
        case "population": return NSNumber(value: Int64(random.next(below: 5) * 1000))
        case "price": return NSNumber(value: Double(random.next(below: 100)) / 4)
        case "qty": return NSNumber(value: Int64(random.next(below: 10)))
        default: return random.pick(QueryTestDatabase.strings)
        }
    }

    /// A city, a group, some people and some items; delete rules nullify the other sides.
    private func makeDeletes() {
        for person in live("Person") where random.next(below: 10) == 0 {
            delete(person)
            deletedPeople.insert(person.primaryKey)
            for item in liveItems(of: person) { item.values["owner"] = nil }
        }
        if random.next(below: 2) == 0 {
            let city = random.pick(live("City"))
            delete(city)
            for person in live("Person") where QueryCases.same(person.values["home"] as? Row, city) {
                person.values["home"] = nil
                changedPeople.insert(person.primaryKey)
            }
        }
        if random.next(below: 2) == 0 {
            let group = random.pick(live("Group"))
            delete(group)
            for person in live("Person") where groups(of: person).contains(where: { QueryCases.same($0, group) }) {
                person.values["groups"] = groups(of: person).filter { !QueryCases.same($0, group) }
                changedPeople.insert(person.primaryKey)
            }
        }
        for item in live("Item") where random.next(below: 12) == 0 {
            delete(item)
            if let owner = owner(of: item), !deleted.contains(owner.primaryKey) { changedPeople.insert(owner.primaryKey) }
        }
    }

    /// About a third of the saved people get one to three edits of their own properties.
    private func makeEdits() {
        for person in live("Person") where random.next(below: 3) == 0 {
            for _ in 0...random.next(below: 3) {
                changedPeople.insert(person.primaryKey)
                switch random.next(below: 5) {
                case 0, 1:
                    let key = random.pick(Self.personAttributes)
                    set(person, key, randomValue(key))
                case 2:
                    let home = person.values["home"] as? Row
                    let choices: [Row?] = live("City").filter { !QueryCases.same(home, $0) } + (home == nil ? [] : [nil])
                    if let city = random.pick(choices) { set(person, "home", city) } else { set(person, "home", nil) }
                case 3:
                    let group = random.pick(live("Group"))
                    let members = data.object(for: person).mutableSetValue(forKey: "groups")
                    if groups(of: person).contains(where: { QueryCases.same($0, group) }) {
                        person.values["groups"] = groups(of: person).filter { !QueryCases.same($0, group) }
                        members.remove(data.object(for: group))
                    } else {
                        person.values["groups"] = groups(of: person) + [group]
                        members.add(data.object(for: group))
                    }
                default:
                    // Moves one of the person's items to someone else: both people change.
                    let movable = liveItems(of: person).filter { !movedItems.contains($0.primaryKey) }
                    let others = live("Person").filter { !QueryCases.same($0, person) }
                    if movable.isEmpty || others.isEmpty {
                        insertItem(ownedBy: person)
                        continue
                    }
                    let item = random.pick(movable), receiver = random.pick(others)
                    movedItems.insert(item.primaryKey)
                    set(item, "owner", receiver)
                    changedPeople.insert(receiver.primaryKey)
                }
            }
        }
    }

    private func insert(_ entity: String) -> Row {
        let object = NSEntityDescription.insertNewObject(forEntityName: entity, into: data.context)
        let template = all[entity]![0]
        let row = Row(entity: template.describedEntity, primaryKey: nextKey, store: template.objectID.persistentStore!)
        nextKey += 1
        data.register(object, as: row.primaryKey)
        all[entity]!.append(row)
        return row
    }

    private func insertItem(ownedBy person: Row) {
        let item = insert("Item")
        for key in ["title", "price", "qty"] { set(item, key, randomValue(key)) }
        set(item, "owner", person)
        changedPeople.insert(person.primaryKey)
    }

    /// New people (with new items), and a new city some saved people move to.
    private func makeInserts() {
        for _ in 0..<random.next(below: 4) {
            let person = insert("Person")
            insertedPeople.insert(person.primaryKey)
            changedPeople.insert(person.primaryKey)
            set(person, "serial", NSNumber(value: nextSerial))
            nextSerial += 1
            for key in Self.personAttributes { set(person, key, randomValue(key)) }
            if random.next(below: 4) != 0 { set(person, "home", random.pick(live("City"))) }
            let joined = live("Group").filter { _ in random.next(below: 3) == 0 }
            person.values["groups"] = joined
            data.object(for: person).mutableSetValue(forKey: "groups").addObjects(from: joined.map { data.object(for: $0) })
            for _ in 0..<random.next(below: 3) { insertItem(ownedBy: person) }
        }
        if random.next(below: 2) == 0 {
            let city = insert("City")
            for key in ["name", "population"] { set(city, key, randomValue(key)) }
            for person in live("Person").filter({ _ in random.next(below: 8) == 0 }) {
                set(person, "home", city)
                changedPeople.insert(person.primaryKey)
            }
        }
    }

    /// Edits of cities, groups and items. They change no person, so a fetch of people judges
    /// the people it does not hold changes for by what the store holds.
    private func editRelatedObjects() {
        for city in live("City") where random.next(below: 3) == 0 {
            let key = random.pick(["name", "population"])
            set(city, key, randomValue(key))
        }
        for group in live("Group") where random.next(below: 3) == 0 { set(group, "label", randomValue("label")) }
        for item in live("Item") where random.next(below: 4) == 0 {
            let key = random.pick(["title", "price", "qty"])
            set(item, key, randomValue(key))
        }
    }

    /// Rebuilds the to-many sides (a person's items, a city's residents, a group's members)
    /// from the to-one and many-to-many sides the changes were recorded on.
    private func recomputeInverses() {
        let people = current["Person"]!
        for person in people {
            person.values["items"] = current["Item"]!.filter { QueryCases.same(owner(of: $0), person) }
            person.values["groups"] = groups(of: person).filter { !deleted.contains($0.primaryKey) }
        }
        for city in current["City"]! {
            city.values["residents"] = people.filter { QueryCases.same($0.values["home"] as? Row, city) }
        }
        for group in current["Group"]! {
            group.values["members"] = people.filter { groups(of: $0).contains { QueryCases.same($0, group) } }
        }
    }
}
