import CoreData
import Foundation
import StressFixtures

/// `history-writer`: the other process of the two-process history test. Opens the store with
/// persistent history tracking and makes `saves` small saves, `intervalMilliseconds` apart,
/// logging "save-number commit-time" (seconds since 1970, taken when `save()` returns) after each.
///
/// The saves cycle through what a fetched results controller must report, sectioned by `batch`
/// and sorted by `touches`: three inserts into one of four sections, a touch (a move within its
/// section), a move to another section, and a delete.
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
            var items: [NSManagedObject] = []
            for number in 1...saves {
                let step = Int64(number)
                switch number % 6 {
                case 0, 1, 2:
                    let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                    item.setValue(step % 4, forKey: "batch")
                    item.setValue(step, forKey: "serial")
                    item.setValue(step * 37 % 101, forKey: "touches")
                    items.append(item)
                case 3 where !items.isEmpty:
                    let item = items[number * 7 % items.count]
                    item.setValue(item.int64("touches") + 13, forKey: "touches")
                case 4 where !items.isEmpty:
                    let item = items[number * 5 % items.count]
                    item.setValue((item.int64("batch") + 1) % 4, forKey: "batch")
                case _ where !items.isEmpty:
                    context.delete(items.remove(at: number * 3 % items.count))
                default:
                    continue
                }
                try context.save()
                try log.append("\(number) \(Date().timeIntervalSince1970)")
                Thread.sleep(forTimeInterval: Double(intervalMilliseconds) / 1000)
            }
        }
    }
}
