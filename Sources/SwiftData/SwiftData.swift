/// SwiftData's API over this package's Core Data: `@Model` classes are backed by managed
/// objects, a `ModelContainer` by a persistent container, a `ModelContext` by a managed object
/// context, so the files and the behaviour are Core Data's.
@_exported import CoreData
// `@Model` classes are `Observable`; the code the macro writes names the registrar's module.
@_exported import Observation
