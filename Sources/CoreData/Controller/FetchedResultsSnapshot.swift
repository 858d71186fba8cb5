/// A fetched results controller's content as section and item identifiers, plus the items
/// whose content changed: the value handed to
/// `controller(_:didChangeContentWith:)` and yielded by `changes`.
///
/// Apple hands an `NSDiffableDataSourceSnapshotReference` that apps cast to UIKit's
/// `NSDiffableDataSourceSnapshot<String, NSManagedObjectID>`. Linux has no UIKit, so this is our
/// own value type with the same reading API (`sectionIdentifiers`, `itemIdentifiers(inSection:)`,
/// `reloadedItemIdentifiers`, ...). `NSDiffableDataSourceSnapshotReference` is an alias for
/// `FetchedResultsSnapshot<String, NSManagedObjectID>`, so a delegate method written with Apple's
/// signature compiles; the cast to UIKit's type has no counterpart.
///
/// For example:
/// ```swift
/// func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>,
///                 didChangeContentWith snapshot: NSDiffableDataSourceSnapshotReference) {
///     for zone in snapshot.sectionIdentifiers {
///         print(zone, snapshot.numberOfItems(inSection: zone))
///     }
/// }
/// ```
public struct FetchedResultsSnapshot<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>: Sendable, Equatable {
    /// The sections in display order.
    public private(set) var sectionIdentifiers: [SectionIdentifierType] = []
    private var items: [[ItemIdentifierType]] = []
    /// Items whose content changed in the change this snapshot reports (redraw them).
    public private(set) var reloadedItemIdentifiers: [ItemIdentifierType] = []

    /// An empty snapshot, to build with `appendSections(_:)` and `appendItems(_:toSection:)`.
    public init() {}

    /// A snapshot of whole sections at once: O(n), where appending section by section would
    /// search the sections for each.
    init(sections: [(SectionIdentifierType, [ItemIdentifierType])], reloaded: [ItemIdentifierType]) {
        sectionIdentifiers = sections.map(\.0)
        items = sections.map(\.1)
        reloadedItemIdentifiers = reloaded
    }

    /// How many sections there are.
    public var numberOfSections: Int { sectionIdentifiers.count }

    /// How many items there are in all sections together.
    public var numberOfItems: Int { items.reduce(0) { $0 + $1.count } }

    /// All items, sections concatenated.
    public var itemIdentifiers: [ItemIdentifierType] { items.flatMap { $0 } }

    /// How many items `identifier`'s section holds; 0 for an unknown section.
    public func numberOfItems(inSection identifier: SectionIdentifierType) -> Int {
        indexOfSection(identifier).map { items[$0].count } ?? 0
    }

    /// The items of `identifier`'s section in order; empty for an unknown section.
    public func itemIdentifiers(inSection identifier: SectionIdentifierType) -> [ItemIdentifierType] {
        indexOfSection(identifier).map { items[$0] } ?? []
    }

    /// The position of the section `identifier`, or nil if there is none.
    public func indexOfSection(_ identifier: SectionIdentifierType) -> Int? {
        sectionIdentifiers.firstIndex(of: identifier)
    }

    /// The flat index of `identifier`: O(n).
    public func indexOfItem(_ identifier: ItemIdentifierType) -> Int? {
        itemIdentifiers.firstIndex(of: identifier)
    }

    /// The section holding `identifier`, or nil: O(n).
    public func sectionIdentifier(containingItem identifier: ItemIdentifierType) -> SectionIdentifierType? {
        items.firstIndex { $0.contains(identifier) }.map { sectionIdentifiers[$0] }
    }

    /// Adds empty sections after the existing ones.
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) {
        sectionIdentifiers += identifiers
        items += identifiers.map { _ in [] }
    }

    /// Appends items to `section`, or to the last section when it is nil.
    public mutating func appendItems(_ identifiers: [ItemIdentifierType], toSection section: SectionIdentifierType? = nil) {
        let index = section.flatMap(indexOfSection) ?? (items.count - 1)
        precondition(index >= 0, "append a section before appending items")
        items[index] += identifiers
    }

    /// Marks items as changed in content, so a view redraws them.
    public mutating func reloadItems(_ identifiers: [ItemIdentifierType]) {
        reloadedItemIdentifiers += identifiers
    }
}

/// Apple's name for the snapshot a delegate receives; see `FetchedResultsSnapshot`.
public typealias NSDiffableDataSourceSnapshotReference = FetchedResultsSnapshot<String, NSManagedObjectID>
