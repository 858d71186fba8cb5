/// How commits to one store file are announced across coordinators and processes: every commit
/// rewrites a byte of a sidecar file, `<store>-changes`, and a watcher blocked in inotify on that
/// file wakes at once. Nothing polls; a commit costs one `open`/`pwrite`/`close`.
///
/// The sidecar is written only by stores that track history or post remote changes, so stores
/// that use neither never create it.
enum SQLiteCommitSignal {
    static func sidecarPath(forStoreAt path: String) -> String { path + "-changes" }

    /// Announces a commit. Failures are ignored: the data is committed either way, and a
    /// missed announcement only delays a reader until the next one.
    static func send(forStoreAt path: String) {
        guard let descriptor = openSidecar(forStoreAt: path) else { return }
        var byte: UInt8 = 1
        _ = pwrite(descriptor, &byte, 1, 0)
        close(descriptor)
    }

    /// Opens (creating) the sidecar for writing, or nil when the name holds anything but the
    /// one-byte regular file we write: never through a link (`O_NOFOLLOW`), never blocking on
    /// a FIFO (`O_NONBLOCK`), never into someone else's file.
    static func openSidecar(forStoreAt path: String) -> Int32? {
        let descriptor = open(sidecarPath(forStoreAt: path), O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= 1 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}

/// A thread blocked on inotify for one store's sidecar file, calling `onCommit` once per wake
/// (several commits close together may share one call). `stop()` wakes it through a pipe.
final class SQLiteCommitWatcher: @unchecked Sendable {
    private let wakeWriter: Int32

    init(storePath: String, onCommit: @escaping @Sendable () -> Void) throws {
        let sidecar = SQLiteCommitSignal.sidecarPath(forStoreAt: storePath)
        if let created = SQLiteCommitSignal.openSidecar(forStoreAt: storePath) { close(created) }
        let inotify = inotify_init1(Int32(IN_CLOEXEC))
        var pipeEnds: [Int32] = [-1, -1]
        guard inotify >= 0, pipe(&pipeEnds) == 0,
              inotify_add_watch(inotify, sidecar, UInt32(IN_CLOSE_WRITE)) >= 0 else {
            let code = errno
            for descriptor in [inotify] + pipeEnds where descriptor >= 0 { close(descriptor) }
            throw CoreDataError.make(NSPersistentStoreOpenError, "Could not watch \(sidecar) for remote changes: \(String(cString: strerror(code)))",
                                     [NSFilePathErrorKey: sidecar, NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code))])
        }
        wakeWriter = pipeEnds[1]
        let wakeReader = pipeEnds[0]
        let thread = Thread {
            Self.run(inotify: inotify, wake: wakeReader, onCommit: onCommit)
            close(inotify)
            close(wakeReader)
        }
        thread.name = "CoreData remote changes"
        thread.start()
    }

    private static func run(inotify: Int32, wake: Int32, onCommit: () -> Void) {
        var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            guard poll(&descriptors, 2, -1) >= 0 else {
                if errno == EINTR { continue }
                return
            }
            // Checked first: a commit after `stop()` must not post.
            if descriptors[1].revents != 0 { return }
            // Drain every queued event; each is one writer closing the file after a commit.
            guard read(inotify, &buffer, buffer.count) > 0 else { return }
            onCommit()
        }
    }

    /// Tells the thread to end without waiting for it: an observer of the notification may be
    /// waiting for the lock the caller holds. The thread closes its own descriptors.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
        close(wakeWriter)
    }
}
