import Foundation

/// Runs an actor's jobs where its model context lives.
public protocol ModelExecutor: AnyObject, Sendable {
    var modelContext: ModelContext { get }
}

/// A model executor that is also the actor's serial executor.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}

/// Runs the actor's jobs on its context's queue, one at a time: the queue on which the context
/// also merges other contexts' saves, so that the actor's reads and writes of its models never
/// overlap a merge changing the same objects.
public final class DefaultSerialModelExecutor: SerialModelExecutor, @unchecked Sendable {
    // The context is only touched by jobs of this executor and by merges, all on its queue.
    public let modelContext: ModelContext

    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        modelContext.managedObjectContext.perform { job.runSynchronously(on: executor) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}

/// An actor with a model context of its own (see `@ModelActor`).
public protocol ModelActor: Actor {
    nonisolated var modelContainer: ModelContainer { get }
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        (modelExecutor as! any SerialModelExecutor).asUnownedSerialExecutor()
    }

    /// The actor's context.
    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The model with `id` in the actor's context, if it exists.
    public subscript<T: PersistentModel>(id: PersistentIdentifier, as as: T.Type) -> T? {
        guard let objectID = modelContext.objectID(for: id),
              let object = try? modelContext.managedObjectContext.existingObject(with: objectID) else { return nil }
        return modelContext.model(for: object) as? T
    }
}
