import CoreData
import Foundation
import StressFixtures

/// `first-open`: waits until a shared start time, then opens a store that may not exist yet
/// and saves one item tagged with this writer's number. Several of these started together
/// create the same brand-new PostgreSQL schema at the same moment (issue 31): each must load
/// and save, whichever of them ends up creating the tables.
struct FirstOpen {
    let store: String
    let writer: Int
    /// Seconds since 1970 at which to open: children start one after another, so a shared
    /// wall-clock moment is what makes their first opens coincide.
    let startTime: Double

    func run() throws {
        let wait = startTime - Date().timeIntervalSince1970
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        let container = try StressModel.container(path: store)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue(Int64(writer), forKey: "batch")
            item.setValue(Int64(0), forKey: "serial")
            item.setValue(StressModel.payload(batch: Int64(writer), serial: 0), forKey: "payload")
            try context.save()
        }
    }
}
