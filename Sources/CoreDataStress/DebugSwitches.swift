import CoreData
import StressFixtures

/// What the tests of Apple's debugging switches run in a child process, with and without
/// `CORE_DATA_CONCURRENCY_DEBUG` and `CORE_DATA_SQL_DEBUG` in its environment, and the edit of
/// a model in use that stops a program whatever the environment.
enum DebugSwitches {
    /// Reads a counter's name outside its context's queue: the concurrency violation the
    /// concurrency switch must stop. Without the switch it prints the name and exits normally.
    static func touchOffQueue(storePath: String) throws {
        let context = try StressModel.container(path: storePath).newBackgroundContext()
        context.name = "touch-off-queue"
        let counter = try context.performAndWait { () -> NSManagedObject in
            let counter = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context)
            counter.setValue("off-queue", forKey: "name")
            try context.save()
            return counter
        }
        // The violation: this thread is not inside the context's queue.
        let name = counter.value(forKey: "name") as? String ?? "?"
        print("read \(name) off the queue")
    }

    /// Saves three counters and fetches one by name and value: the statements the SQL switch logs.
    static func fetchWithBoundValues(storePath: String) throws {
        let context = try StressModel.container(path: storePath).newBackgroundContext()
        let matches = try context.performAndWait { () -> Int in
            for (index, name) in ["alpha", "beta", "gamma"].enumerated() {
                let counter = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context)
                counter.setValue(name, forKey: "name")
                counter.setValue(Int64(index * 10), forKey: "value")
            }
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Counter")
            request.predicate = NSPredicate(format: "name == %@ AND value > %d", "beta", 5)
            return try context.fetch(request).count
        }
        print("matched \(matches)")
    }

    /// Makes an attribute of a model required after a coordinator started using the model.
    static func editModelInUse(storePath: String) throws {
        let container = try StressModel.container(path: storePath)
        let value = container.managedObjectModel.entitiesByName["Counter"]?.attributesByName["value"]
        value?.isOptional = true
        print("edited a model in use")
    }
}
