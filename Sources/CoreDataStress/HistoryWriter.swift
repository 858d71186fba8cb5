import CoreData
import Foundation
import StressFixtures

/// `history-writer`: the other process of the two-process history test. Opens the store with
/// persistent history tracking and makes `saves` small saves, `intervalMilliseconds` apart,
/// logging "save-number commit-time" (seconds since 1970, taken when `save()` returns) after each.
///
/// The saves are `ItemChurn`'s changes.
struct HistoryWriter {
    let storePath: String
    let saves: Int
    let intervalMilliseconds: Int
    let logPath: String

    func run() throws {
        let log = try AppendOnlyLog(path: logPath)
        let container = try StressModel.container(path: storePath, options: [NSPersistentHistoryTrackingKey: true as NSNumber])
        let context = container.newBackgroundContext()
        context.transactionAuthor = "history-writer"
        try context.performAndWait {
            var churn = ItemChurn()
            for number in 1...saves {
                guard churn.change(number, in: context) else { continue }
                try context.save()
                try log.append("\(number) \(Date().timeIntervalSince1970)")
                Thread.sleep(forTimeInterval: Double(intervalMilliseconds) / 1000)
            }
        }
    }
}
