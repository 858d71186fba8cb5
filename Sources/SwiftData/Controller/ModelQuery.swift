/// A live query, for programs without SwiftUI's `@Query`: the models a descriptor matches, in
/// sections, kept current by a fetched results controller as the context changes and saves.
///
/// For example:
/// ```swift
/// let query = try ModelQuery(FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.name)]), in: context)
/// query.onChange = { difference in print(difference.insertions.count, "new trips") }
/// ```
/// The controller computes each change without refetching; `onChange` receives it as a
/// difference of the flat list of identifiers.
public final class ModelQuery<T: PersistentModel>: NSFetchedResultsControllerDelegate {
    /// The matching models, in the descriptor's order.
    public private(set) var models: [T] = []
    /// The models by section, when the query is sectioned.
    public private(set) var sections: [Section] = []
    /// Called after each change with the difference of the models' identifiers.
    public var onChange: ((CollectionDifference<PersistentIdentifier>) -> Void)?

    private let context: ModelContext
    private let controller: NSFetchedResultsController<NSManagedObject>

    /// Starts the query; throws if the descriptor cannot be translated or has no sort.
    public init(_ descriptor: FetchDescriptor<T>, in context: ModelContext, sectionedBy sectionKeyPath: KeyPath<T, String>? = nil) throws {
        self.context = context
        let request: NSFetchRequest<NSManagedObject> = try descriptor.fetchRequest()
        controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context.managedObjectContext,
            sectionNameKeyPath: sectionKeyPath.flatMap { FetchDescriptor<T>.name($0) }, cacheName: nil
        )
        controller.delegate = self
        try controller.performFetch()
        reload()
    }

    /// One section: its name and models.
    public struct Section {
        public let name: String
        public let models: [T]
    }

    public func controller(_ controller: NSFetchedResultsController<NSFetchRequestResult>, didChangeContentWith diff: CollectionDifference<NSManagedObjectID>) {
        reload()
        let changes = diff.map { change -> CollectionDifference<PersistentIdentifier>.Change in
            switch change {
            case .insert(let offset, let id, let associated): .insert(offset: offset, element: PersistentIdentifier(id), associatedWith: associated)
            case .remove(let offset, let id, let associated): .remove(offset: offset, element: PersistentIdentifier(id), associatedWith: associated)
            }
        }
        if let difference = CollectionDifference(changes) { onChange?(difference) }
    }

    private func reload() {
        models = context.models(for: controller.fetchedObjects ?? [], as: T.self)
        sections = (controller.sections ?? []).map { section in
            Section(name: section.name, models: context.models(for: (section.objects ?? []).compactMap { $0 as? NSManagedObject }, as: T.self))
        }
    }
}
