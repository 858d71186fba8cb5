/// The names of WeTransfer's "relationship key paths" extension of Core Data, for code written
/// against it. Here the feature is built in: every `NSFetchRequest` has
/// `relationshipKeyPathsForRefreshing`, and every `NSFetchedResultsController` honours it, so
/// these are plain aliases.
///
/// For example:
/// ```swift
/// let request = RichFetchRequest<Content>(entityName: "Content")
/// request.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
/// request.relationshipKeyPathsForRefreshing = ["bucket.name"]
/// let controller = RichFetchedResultsController(
///     fetchRequest: request, managedObjectContext: context,
///     sectionNameKeyPath: nil, cacheName: nil)
/// ```
public typealias RichFetchRequest<ResultType> = NSFetchRequest<ResultType>

/// See `RichFetchRequest`.
public typealias RichFetchedResultsController<ResultType> = NSFetchedResultsController<ResultType>
