import CoreData
import StressFixtures

/// The changes the history commands save, cycling through what a fetched results controller
/// sectioned by `batch` and sorted by `touches` must report: three inserts into one of four
/// sections, a touch (a move within its section), a move to another section, and a delete.
/// Only items this churn inserted are changed, so several processes churning one store never
/// conflict.
struct ItemChurn {
    /// Added to each inserted item's serial, keeping processes' serials apart.
    let serialBase: Int64
    private var items: [NSManagedObject] = []

    init(serialBase: Int64 = 0) { self.serialBase = serialBase }

    /// Makes change `number` (1, 2, …) in `context`; false when there was nothing to change.
    mutating func change(_ number: Int, in context: NSManagedObjectContext) -> Bool {
        let step = Int64(number)
        switch number % 6 {
        case 0, 1, 2:
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue(step % 4, forKey: "batch")
            item.setValue(serialBase + step, forKey: "serial")
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
            return false
        }
        return true
    }
}
