@testable import CoreData

/// Replays a change batch the way a table applies one batch update (DESIGN.md §7), and
/// rejects batches a table would reject or that report more than they must.
///
/// Rules enforced: each object at most once; deletes, moves' sources and updates name the
/// object that really sits at that old address; no move or update out of a deleted section;
/// inserted sections and rows land at valid new addresses; the result equals the expected
/// table; every content change of a surviving object is reported; nothing unchanged is
/// reported; no move could have been an update (or nothing) with the same final table.
struct ReplayChecker<ID: Hashable> {
    /// A table's contents: section names and row identities.
    struct Table: Equatable, CustomStringConvertible {
        struct Section: Equatable {
            var name: String
            var ids: [ID]
        }

        var sections: [Section]

        init(sections: [Section]) { self.sections = sections }

        init<Key>(_ snapshot: ResultsSnapshot<ID, Key>) {
            sections = snapshot.sections.map { Section(name: $0.name, ids: $0.rows.map(\.id)) }
        }

        var ids: [ID] { sections.flatMap(\.ids) }

        var description: String {
            sections.map { "\($0.name): \($0.ids.map { "\($0)" }.joined(separator: " "))" }
                .joined(separator: " | ")
        }
    }

    /// Why a batch is illegal.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The table after `batch`, or the first rule it breaks.
    static func replay(_ batch: ChangeBatch<ID>, onto old: Table) throws(Failure) -> Table {
        var deletedSections = Set<Int>()
        var insertedSections: [Int: String] = [:]
        for change in batch.sectionChanges {
            switch change.kind {
            case .delete:
                guard change.index >= 0, change.index < old.sections.count else {
                    throw Failure(description: "section delete \(change.index) out of range")
                }
                guard old.sections[change.index].name == change.name else {
                    throw Failure(description: "section delete \(change.index) names \(change.name)")
                }
                guard deletedSections.insert(change.index).inserted else {
                    throw Failure(description: "section \(change.index) deleted twice")
                }
            case .insert:
                guard insertedSections.updateValue(change.name, forKey: change.index) == nil else {
                    throw Failure(description: "section \(change.index) inserted twice")
                }
            case .move, .update:
                throw Failure(description: "section change of kind \(change.kind)")
            }
        }

        var reported = Set<ID>()
        var removed = Set<RowAddress>()
        var arrivals: [RowAddress: ID] = [:]
        func checkOld(_ address: RowAddress?, _ id: ID, _ what: String) throws(Failure) -> RowAddress {
            guard let address, address.section >= 0, address.section < old.sections.count,
                  address.row >= 0, address.row < old.sections[address.section].ids.count
            else { throw Failure(description: "\(what) of \(id) at invalid old address \(String(describing: address))") }
            guard old.sections[address.section].ids[address.row] == id else {
                throw Failure(description: "\(what) of \(id) names \(address), which holds another row")
            }
            return address
        }
        func arrive(_ address: RowAddress?, _ id: ID, _ what: String) throws(Failure) {
            guard let address else { throw Failure(description: "\(what) of \(id) without new address") }
            guard arrivals.updateValue(id, forKey: address) == nil else {
                throw Failure(description: "two rows arrive at \(address)")
            }
        }
        for change in batch.objectChanges {
            guard reported.insert(change.id).inserted else {
                throw Failure(description: "\(change.id) reported twice")
            }
            switch change.kind {
            case .delete:
                let address = try checkOld(change.oldAddress, change.id, "delete")
                removed.insert(address)
            case .move:
                let address = try checkOld(change.oldAddress, change.id, "move")
                guard !deletedSections.contains(address.section) else {
                    throw Failure(description: "move of \(change.id) out of deleted section \(address.section)")
                }
                removed.insert(address)
                try arrive(change.newAddress, change.id, "move")
            case .update:
                let address = try checkOld(change.oldAddress, change.id, "update")
                guard !deletedSections.contains(address.section) else {
                    throw Failure(description: "update of \(change.id) in deleted section \(address.section)")
                }
            case .insert:
                if let vacated = change.oldAddress {
                    let address = try checkOld(vacated, change.id, "insert (vacated)")
                    guard deletedSections.contains(address.section) else {
                        throw Failure(description: "insert of \(change.id) vacates a surviving section")
                    }
                }
                try arrive(change.newAddress, change.id, "insert")
            }
        }

        // Phase 1 at old addresses: drop deleted sections and removed rows.
        var surviving: [Table.Section] = []
        for (index, section) in old.sections.enumerated() where !deletedSections.contains(index) {
            var ids: [ID] = []
            for (row, id) in section.ids.enumerated()
            where !removed.contains(RowAddress(section: index, row: row)) {
                ids.append(id)
            }
            surviving.append(Table.Section(name: section.name, ids: ids))
        }
        // Phase 2 at new addresses: insert sections, then rows, ascending.
        let total = surviving.count + insertedSections.count
        var result: [Table.Section] = []
        var next = surviving.makeIterator()
        for index in 0..<total {
            if let name = insertedSections[index] {
                result.append(Table.Section(name: name, ids: []))
            } else {
                result.append(next.next()!)
            }
        }
        guard insertedSections.keys.allSatisfy({ $0 < total }) else {
            throw Failure(description: "section insert beyond the new section count \(total)")
        }
        for address in arrivals.keys.sorted() {
            guard address.section < result.count, address.row <= result[address.section].ids.count
            else { throw Failure(description: "row arrives at unreachable \(address)") }
            result[address.section].ids.insert(arrivals[address]!, at: address.row)
        }
        return Table(sections: result)
    }

    /// Checks `batch` turns `old` into `new` legally and minimally.
    ///
    /// - parameter changed: the objects the batch may mention (nil: any, as for a refetch).
    /// - parameter contentChanged: objects whose content changed; those surviving must be reported.
    static func check(
        _ batch: ChangeBatch<ID>, old: Table, new: Table,
        changed: Set<ID>?, contentChanged: Set<ID>
    ) throws(Failure) {
        let replayed = try replay(batch, onto: old)
        guard replayed == new else {
            throw Failure(description: "replay gives \(replayed)\n expected \(new)")
        }
        let oldIDs = Set(old.ids)
        let newIDs = Set(new.ids)
        let reported = Dictionary(batch.objectChanges.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for id in contentChanged where oldIDs.contains(id) && newIDs.contains(id) {
            guard reported[id] != nil else { throw Failure(description: "content change of \(id) not reported") }
        }
        for change in batch.objectChanges {
            if change.kind == .update, !contentChanged.contains(change.id) {
                throw Failure(description: "update of \(change.id) whose content did not change")
            }
            // A row carried along by a section that had to be deleted and inserted is fine.
            let displaced = change.kind == .insert && change.oldAddress != nil
            if let changed, !changed.contains(change.id), !displaced {
                throw Failure(description: "unchanged \(change.id) reported as \(change.kind)")
            }
        }
        // Minimality: no move may be replaceable by leaving the row where it is.
        for (index, change) in batch.objectChanges.enumerated() where change.kind == .move {
            var alternative = batch
            alternative.objectChanges[index].kind = .update
            if let table = try? replay(alternative, onto: old), table == new {
                throw Failure(description: "move of \(change.id) \(change.oldAddress!)→\(change.newAddress!) where an update suffices")
            }
        }
    }
}
