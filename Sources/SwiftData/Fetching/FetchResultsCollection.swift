/// Fetch results read in batches: the matching identifiers are fetched at once, each batch's
/// models when an index in it is first read.
public struct FetchResultsCollection<Element: PersistentModel>: RandomAccessCollection {
    private let identifiers: [NSManagedObjectID]
    private let batchSize: Int
    private let context: ModelContext
    private let batches = BatchCache<Element>()

    init(identifiers: [NSManagedObjectID], batchSize: Int, context: ModelContext) {
        self.identifiers = identifiers
        self.batchSize = Swift.max(batchSize, 1)
        self.context = context
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { identifiers.count }

    public subscript(position: Int) -> Element {
        let batch = position / batchSize
        if let models = batches.models[batch] { return models[position - batch * batchSize] }
        let range = (batch * batchSize)..<Swift.min((batch + 1) * batchSize, identifiers.count)
        // One fetch fills the whole batch's rows before the models are made.
        let request = NSFetchRequest<NSManagedObject>(entityName: Element.entityName)
        request.predicate = NSPredicate(format: "self IN %@", Array(identifiers[range]))
        let fetched = (try? context.managedObjectContext.fetch(request)) ?? []
        let byID = Dictionary(fetched.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
        let models = context.models(for: identifiers[range].map { id in
            byID[id] ?? context.managedObjectContext.object(with: id)
        }, as: Element.self)
        batches.models[batch] = models
        return models[position - batch * batchSize]
    }
}

/// The batches read so far, shared by copies of the collection.
private final class BatchCache<Element> {
    var models: [Int: [Element]] = [:]
}
