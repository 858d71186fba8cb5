/// The controller's ordered results: rows grouped into named sections.
///
/// Each row carries an opaque identity and its precomputed sort key, so a later change batch can
/// find where an object *was* without reading the object again (it may have changed since).
///
/// Ordering model: rows are grouped by section name; inside a section they are sorted by key;
/// sections are ordered by their first (smallest) row. When the first sort descriptor orders by
/// the section key path, as Apple requires, this is exactly "runs of consecutive equal section
/// names over the sorted rows". When it does not, the grouping is still well defined, so the
/// engine never has to reject a batch.
///
/// Keys must be strictly ordered (callers append a stable tie-breaker such as the object's
/// identity order), so a from-scratch sort and an incremental update agree row for row.
struct ResultsSnapshot<ID: Hashable, Key> {
    /// One fetched object: identity plus the key it is sorted by.
    struct Row {
        var id: ID
        var key: Key
    }

    /// A run of rows sharing one section name.
    struct Section {
        var name: String
        var rows: [Row]
    }

    /// What the snapshot remembers per identity to find the row again in O(log n).
    struct Entry {
        var key: Key
        var section: String
    }

    /// The strict order on keys.
    let areInIncreasingOrder: (Key, Key) -> Bool
    private(set) var sections: [Section]
    private(set) var sectionIndexByName: [String: Int]
    private(set) var entries: [ID: Entry]
    private(set) var count: Int
    /// The section of the row appended last while building (whose last row it is), -1 before
    /// the first.
    private var lastAppendedSection = -1

    /// An empty snapshot ordered by `areInIncreasingOrder`.
    init(areInIncreasingOrder: @escaping (Key, Key) -> Bool) {
        self.areInIncreasingOrder = areInIncreasingOrder
        sections = []
        sectionIndexByName = [:]
        entries = [:]
        count = 0
    }

    /// Builds a snapshot from rows in any order: O(n) when they are sorted already (as a store
    /// that sorts like us returns them), O(n log n) otherwise.
    init(
        rows: [(id: ID, key: Key, section: String)],
        areInIncreasingOrder: @escaping (Key, Key) -> Bool
    ) {
        self.init(sortedRows: Self.sorted(rows, by: areInIncreasingOrder), areInIncreasingOrder: areInIncreasingOrder)
    }

    /// `rows` in key order, sorted only if they are not in it.
    static func sorted(_ rows: [(id: ID, key: Key, section: String)], by order: (Key, Key) -> Bool) -> [(id: ID, key: Key, section: String)] {
        // By index: zipping the array with itself copied both tuples (four counted references)
        // per comparison.
        let isSorted = rows.indices.dropFirst().allSatisfy { order(rows[$0 - 1].key, rows[$0].key) }
        return isSorted ? rows : rows.sorted { order($0.key, $1.key) }
    }

    /// Builds a snapshot from rows already sorted by key: O(n).
    init(
        sortedRows: some Sequence<(id: ID, key: Key, section: String)>,
        areInIncreasingOrder: @escaping (Key, Key) -> Bool
    ) {
        self.init(areInIncreasingOrder: areInIncreasingOrder)
        entries.reserveCapacity(sortedRows.underestimatedCount)
        for (id, key, name) in sortedRows { appendUnchecked(id: id, key: key, section: name) }
    }

    /// Room for `count` rows.
    mutating func reserveCapacity(_ count: Int) {
        entries.reserveCapacity(count)
    }

    /// Appends a row after all others when its key orders after the last row's appended so;
    /// returns false, appending nothing, when it does not. O(1) amortised: for building a
    /// snapshot from rows that usually come sorted (a store that sorts as we do), without
    /// collecting them first. Only while building, before any change is applied: changes
    /// move rows and sections, and the last appended row is no longer known.
    mutating func appendInOrder(id: ID, key: Key, section name: String) -> Bool {
        if lastAppendedSection >= 0 {
            let rows = sections[lastAppendedSection].rows
            guard areInIncreasingOrder(rows[rows.count - 1].key, key) else { return false }
        }
        appendUnchecked(id: id, key: key, section: name)
        return true
    }

    /// Appends a row the caller knows orders after all others.
    private mutating func appendUnchecked(id: ID, key: Key, section name: String) {
        // Consecutive rows usually share a section: skip the dictionary for them.
        let index: Int
        if lastAppendedSection >= 0, sections[lastAppendedSection].name == name {
            index = lastAppendedSection
        } else if let existing = sectionIndexByName[name] {
            index = existing
        } else {
            index = sections.count
            sections.append(Section(name: name, rows: []))
            sectionIndexByName[name] = index
        }
        precondition(entries.updateValue(Entry(key: key, section: name), forKey: id) == nil, "duplicate row identity")
        sections[index].rows.append(Row(id: id, key: key))
        count += 1
        lastAppendedSection = index
    }

    /// Every row with its section's name, section by section.
    var rows: [(id: ID, key: Key, section: String)] {
        var rows: [(id: ID, key: Key, section: String)] = []
        rows.reserveCapacity(count)
        for section in sections {
            for row in section.rows { rows.append((row.id, row.key, section.name)) }
        }
        return rows
    }

    var isEmpty: Bool { count == 0 }

    /// Where `id` sits: O(1) for its section, O(log m) inside a section of m rows.
    ///
    /// A hash map from identity straight to a row index would need O(n) fix-ups whenever a row
    /// is inserted above others; keys and section names do not shift, so they are what we keep.
    func address(of id: ID) -> RowAddress? {
        guard let entry = entries[id], let section = sectionIndexByName[entry.section] else {
            return nil
        }
        guard let row = rowIndex(of: id, key: entry.key, inSection: section) else { return nil }
        return RowAddress(section: section, row: row)
    }

    /// Where each of `ids` sits. A section holding many of them is scanned once, O(rows);
    /// the others are found one by one, O(log rows) key comparisons each. A merge of 10,000
    /// new objects into 32 sections paid two binary searches an object before.
    func addresses(of ids: [ID]) -> [RowAddress?] {
        let sectionOfID = ids.map { id in entries[id].flatMap { sectionIndexByName[$0.section] } }
        var wanted: [Int: Int] = [:]
        for section in sectionOfID.compactMap({ $0 }) { wanted[section, default: 0] += 1 }
        var scanned: [ID: RowAddress] = [:]
        let wantedIDs = Set(ids)
        for (section, count) in wanted {
            let rows = sections[section].rows
            // A binary search costs about log2(rows) comparisons of whole sort keys.
            guard count * (rows.count.bitWidth - rows.count.leadingZeroBitCount + 1) > rows.count else { continue }
            for (row, element) in rows.enumerated() where wantedIDs.contains(element.id) {
                scanned[element.id] = RowAddress(section: section, row: row)
            }
        }
        return ids.indices.map { index in
            guard let section = sectionOfID[index] else { return nil }
            if let address = scanned[ids[index]] { return address }
            guard wanted[section] != nil, let entry = entries[ids[index]],
                  let row = rowIndex(of: ids[index], key: entry.key, inSection: section) else { return nil }
            return RowAddress(section: section, row: row)
        }
    }

    /// The row at `address`.
    subscript(address: RowAddress) -> Row {
        sections[address.section].rows[address.row]
    }

    /// All identities in table order (sections concatenated).
    var ids: [ID] {
        var result: [ID] = []
        result.reserveCapacity(count)
        for section in sections {
            for row in section.rows { result.append(row.id) }
        }
        return result
    }

    /// Offset of each section's first row in the flat order, plus the total at the end: O(s).
    var sectionStarts: [Int] {
        var starts: [Int] = []
        starts.reserveCapacity(sections.count + 1)
        var total = 0
        for section in sections {
            starts.append(total)
            total += section.rows.count
        }
        starts.append(total)
        return starts
    }

    /// First row index in `section` whose key is not below `key` (binary search).
    func lowerBound(of key: Key, inSection section: Int) -> Int {
        let rows = sections[section].rows
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if areInIncreasingOrder(rows[middle].key, key) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// First row index in `section` whose key is above `key` (binary search).
    func upperBound(of key: Key, inSection section: Int) -> Int {
        let rows = sections[section].rows
        var low = 0
        var high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if areInIncreasingOrder(key, rows[middle].key) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The row holding `id`, known to be sorted under `key`; tolerates equal keys by scanning them.
    func rowIndex(of id: ID, key: Key, inSection section: Int) -> Int? {
        let rows = sections[section].rows
        var index = lowerBound(of: key, inSection: section)
        while index < rows.count {
            if rows[index].id == id { return index }
            if areInIncreasingOrder(key, rows[index].key) { return nil }
            index += 1
        }
        return nil
    }
}

// MARK: - Mutation used by the incremental engine

extension ResultsSnapshot {
    /// Removes the rows at `rows` (any order) from `section`; leaves an empty section in place.
    mutating func removeRows(_ rows: [Int], fromSection section: Int) {
        // Descending order keeps the remaining indices valid; each removal is one memmove.
        for row in rows.sorted(by: >) {
            let removed = sections[section].rows.remove(at: row)
            entries[removed.id] = nil
        }
        count -= rows.count
    }

    /// Inserts rows into their sections. Where many rows go into one section they are sorted
    /// and merged with it in one pass, O(n + k log k) comparisons; a few go in one by one,
    /// O(log n) comparisons and a memmove each.
    mutating func insertRows(_ rows: [(row: Row, section: String)]) {
        var bySection: [String: [Row]] = [:]
        for (row, section) in rows { bySection[section, default: []].append(row) }
        for (name, added) in bySection {
            let existing = sectionIndexByName[name].map { sections[$0].rows.count } ?? 0
            guard existing > 0, added.count * (existing.bitWidth - existing.leadingZeroBitCount + 1) > existing else {
                for row in added { insertRow(row, section: name) }
                continue
            }
            let section = sectionIndexByName[name]!
            let sorted = added.sorted { areInIncreasingOrder($0.key, $1.key) }
            var merged: [Row] = []
            merged.reserveCapacity(existing + sorted.count)
            var old = sections[section].rows[...]
            var new = sorted[...]
            // Equal keys: the existing row first, as `upperBound` places a new one after it.
            while let next = new.first {
                if let current = old.first, !areInIncreasingOrder(next.key, current.key) {
                    merged.append(current)
                    old = old.dropFirst()
                } else {
                    merged.append(next)
                    new = new.dropFirst()
                }
            }
            merged += old
            sections[section].rows = merged
            for row in sorted { entries[row.id] = Entry(key: row.key, section: name) }
            count += sorted.count
        }
    }

    /// Inserts a row into the section named `name`, creating it at the end if needed.
    ///
    /// Section order is restored afterwards by `normalizeSections()`.
    mutating func insertRow(_ row: Row, section name: String) {
        let section: Int
        if let existing = sectionIndexByName[name] {
            section = existing
        } else {
            section = sections.count
            sections.append(Section(name: name, rows: []))
            sectionIndexByName[name] = section
        }
        let position = upperBound(of: row.key, inSection: section)
        sections[section].rows.insert(row, at: position)
        entries[row.id] = Entry(key: row.key, section: name)
        count += 1
    }

    /// Drops empty sections and reorders sections by their first row: O(s), O(s log s) if the
    /// order actually changed.
    mutating func normalizeSections() {
        var changed = false
        if sections.contains(where: { $0.rows.isEmpty }) {
            sections.removeAll { $0.rows.isEmpty }
            changed = true
        }
        let isSorted = zip(sections, sections.dropFirst()).allSatisfy {
            areInIncreasingOrder($0.rows[0].key, $1.rows[0].key)
        }
        if !isSorted {
            let order = areInIncreasingOrder
            sections.sort { order($0.rows[0].key, $1.rows[0].key) }
            changed = true
        }
        if changed || sectionIndexByName.count != sections.count {
            sectionIndexByName.removeAll(keepingCapacity: true)
            for (index, section) in sections.enumerated() { sectionIndexByName[section.name] = index }
        }
    }
}
