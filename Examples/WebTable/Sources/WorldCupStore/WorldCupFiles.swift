import CoreData

/// The World Cup example's model and seed, read where they live in the repository.
///
/// WebTable shows the same tables as `swift run worldcup`, so it reads that example's
/// `.xcdatamodeld` and `seed.json` in place (found from this source file's path) rather than
/// keeping copies that could drift apart. The program therefore runs from a checkout, which is
/// how examples are run.
public enum WorldCupFiles {
    /// `Examples/`, four levels above this file (`Examples/WebTable/Sources/WorldCupStore/`).
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let modelURL = examples.appendingPathComponent("WorldCup/Model/WorldCup.xcdatamodeld")
    public static let seedURL = examples.appendingPathComponent("WorldCup/Resources/seed.json")

    /// Loaded once per process: every container of the process shares one model, so that
    /// `Team` and its entity description are one and the same everywhere.
    public static let model: NSManagedObjectModel? = NSManagedObjectModel(contentsOf: modelURL)
}
