#if canImport(Glibc)
import Glibc
#endif
import CoreData
import StressFixtures
import Foundation
import Testing

/// Saves that do not fit: they throw, the context keeps its changes, and once there is room
/// again the same context saves everything intact.
@Suite struct DiskFullTests {
    /// `disk-full`'s report (Sources/CoreDataStress/DiskFull.swift).
    struct Report: Decodable {
        var baselineSaved: Bool
        var limitedSaveErrors: [String]
        var limitedSaveErrorCodes: [Int]
        var hasChangesAfterFailure: Bool
        var insertedAfterFailure: Int
        var retryError: String?
        var reopenedCount: Int
        var payloadsIntact: Bool
    }

    /// The default path, which needs no privileges: a child process whose file-size limit
    /// (RLIMIT_FSIZE) stops the store's files from growing, as a full disk would.
    @Test func saveBeyondTheFileSizeLimitThrowsKeepsChangesAndSucceedsLater() throws {
        let directory = TemporaryDirectory()
        let store = directory.file("Full.sqlite")
        let objects = 40, payloadBytes = 40_000
        let child = try StressProcess(["disk-full", "--store", store.path, "--report", directory.file("report.json").path,
                                       "--objects", String(objects), "--payload-bytes", String(payloadBytes)],
                                      errorLog: directory.file("stderr.txt"))
        let failure = child.waitForSuccess()
        try #require(failure == nil, "disk-full failed: \(failure ?? "")")
        let report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: directory.file("report.json")))
        #expect(report.baselineSaved)
        #expect(report.limitedSaveErrors.count == 2, "both saves under the limit throw")
        #expect(report.limitedSaveErrorCodes.allSatisfy { $0 == 640 }, "NSFileWriteOutOfSpaceError: \(report.limitedSaveErrors)")
        #expect(report.hasChangesAfterFailure)
        #expect(report.insertedAfterFailure == objects)
        #expect(report.retryError == nil, "the save after the limit is lifted: \(report.retryError ?? "")")
        #expect(report.reopenedCount == objects + 4)
        #expect(report.payloadsIntact)
        #expect(try StoreInspection.integrityCheck(store.path) == "ok")
        // And this process, with its own container, reads the same.
        let context = try makeContainer(model: StressModel.make(), storeURL: store).newBackgroundContext()
        let count = try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Item")) }
        #expect(count == objects + 4)
        print("disk full (RLIMIT_FSIZE): \(report.limitedSaveErrors.count) saves refused with 640, context kept \(report.insertedAfterFailure) inserted objects, retry saved them all")
    }

    /// A real full file system: a small tmpfs, filled up with a ballast file that is removed
    /// to free space. Needs root and a kernel that lets this process mount (CI as root on a
    /// machine like ours does); skipped otherwise.
    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a tmpfs is not permitted here (needs root and CAP_SYS_ADMIN); the RLIMIT_FSIZE test covers full disks"))
    func saveOnAFullFileSystemThrowsKeepsChangesAndSucceedsOnceSpaceIsFreed() throws {
        let volume = try SmallFileSystem(megabytes: 2)
        defer { volume.unmount() }
        let store = volume.url.appendingPathComponent("Full.sqlite")
        let container = try makeContainer(model: StressModel.make(), storeURL: store)
        let context = container.newBackgroundContext()
        let ballast = volume.url.appendingPathComponent("ballast")
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context).setValue("baseline", forKey: "name")
            try context.save()
            try volume.fill(with: ballast, leaving: 16 * 1024)
            for serial in 0..<20 {
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue(Int64(serial), forKey: "serial")
                item.setValue(StressModel.bigPayload(serial: serial, bytes: 20_000), forKey: "payload")
            }
            let error = #expect(throws: NSError.self) { try context.save() }
            #expect(error?.code == 640, "\(String(describing: error))")
            #expect(context.insertedObjects.count == 20)
            try FileManager.default.removeItem(at: ballast)
            try context.save()
            #expect(!context.hasChanges)
        }
        let reader = try makeContainer(model: StressModel.make(), storeURL: store).newBackgroundContext()
        try reader.performAndWait {
            let items = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
            #expect(items.count == 20)
            #expect(items.allSatisfy { $0.string("payload") == StressModel.bigPayload(serial: Int($0.int64("serial")), bytes: 20_000) })
        }
        #expect(try StoreInspection.integrityCheck(store.path) == "ok")
    }
}

/// A tmpfs of a few megabytes mounted on a temporary directory.
struct SmallFileSystem {
    let url: URL

    /// Whether this process may mount one (tried once, on a scratch directory).
    static let canMount: Bool = {
        guard getuid() == 0, let probe = try? SmallFileSystem(megabytes: 1) else { return false }
        probe.unmount()
        return true
    }()

    init(megabytes: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("CoreDataTests-tmpfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard mount("tmpfs", url.path, "tmpfs", 0, "size=\(megabytes)m") == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: url)
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno), userInfo: [NSLocalizedDescriptionKey: "mount tmpfs: \(reason)"])
        }
    }

    func unmount() {
        umount2(url.path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `file` until the file system has only about `bytes` left.
    func fill(with file: URL, leaving bytes: Int) throws {
        var info = statvfs()
        guard statvfs(url.path, &info) == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        try Data(count: max(free - bytes, 0)).write(to: file)
    }
}
