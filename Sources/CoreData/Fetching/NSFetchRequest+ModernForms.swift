/// The Swift forms of a fetch request's predicate and sort: `#Predicate` and `SortDescriptor`.
extension NSFetchRequest where ResultType: NSManagedObject {
    /// A request built from a `#Predicate` and `SortDescriptor`s, translated as
    /// `NSPredicate(_:)` translates them.
    ///
    /// For example:
    /// ```swift
    /// let request = NSFetchRequest<Dog>(entityName: "Dog", predicate: #Predicate { $0.name == "Rex" },
    ///                                   sortDescriptors: [SortDescriptor(\.name)])
    /// ```
    /// An untranslatable predicate makes the fetch throw (see `NSPredicate.init(_:)`).
    public convenience init(entityName: String, predicate: Predicate<ResultType>,
                            sortDescriptors: [SortDescriptor<ResultType>] = []) {
        self.init(entityName: entityName)
        self.predicate = NSPredicate(predicate)
        if !sortDescriptors.isEmpty { setSortDescriptors(sortDescriptors) }
    }
}

extension NSFetchRequest {
    /// Sets `predicate` from a `#Predicate`, throwing at once if it cannot be translated.
    ///
    /// For example:
    /// ```swift
    /// try request.setPredicate(#Predicate<Dog> { $0.name?.starts(with: "R") ?? false })
    /// ```
    public func setPredicate<Root: NSManagedObject>(_ predicate: Predicate<Root>) throws {
        self.predicate = try NSPredicate.parse(predicate)
    }

    /// Sets `sortDescriptors` from Swift `SortDescriptor`s (see `NSSortDescriptor.init(_:)`).
    public func setSortDescriptors<Root: NSManagedObject>(_ sortDescriptors: [SortDescriptor<Root>]) {
        self.sortDescriptors = sortDescriptors.map { NSSortDescriptor($0) }
    }
}
