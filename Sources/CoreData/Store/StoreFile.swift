import Foundation

/// What is at a path a store operation was handed, found before anything there is opened,
/// written, renamed over or removed.
///
/// The library touches a path only once it has recognised it as a store of the type it was
/// asked for: a regular file carrying that type's header. Everything else (devices, FIFOs,
/// sockets, directories, symbolic links to anything but a store, text and empty files) is
/// left exactly as it was and named in a thrown error. The look is an `lstat`, so a symbolic
/// link is seen as a link, and a header read with `O_NONBLOCK`, so a FIFO never blocks it.
struct StoreFile {
    /// What the path names, without following a final symbolic link.
    enum Kind: Equatable {
        /// No directory entry at the path.
        case nothing
        /// A path the system cannot look up (too long, or through a file as if a folder).
        case unreachable
        /// `/dev/null`: Xcode's URL for a store that keeps nothing.
        case anonymous
        case regularFile
        case directory
        case symbolicLink
        case characterDevice
        case blockDevice
        case fifo
        case socket
    }

    let url: URL
    let kind: Kind
    /// The file's first bytes (up to 100, SQLite's header size); empty unless a regular file.
    let header: [UInt8]

    /// Inspects `url`, reading at most its first 100 bytes.
    init(_ url: URL) {
        self.url = url
        guard !Self.isAnonymous(url) else {
            (kind, header) = (.anonymous, [])
            return
        }
        var status = stat()
        guard lstat(url.path, &status) == 0 else {
            // A name too long, or a folder on the way that is a file: no store can be there.
            (kind, header) = (errno == ENOENT ? .nothing : .unreachable, [])
            return
        }
        kind = switch status.st_mode & S_IFMT {
        case S_IFREG: .regularFile
        case S_IFDIR: .directory
        case S_IFLNK: .symbolicLink
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFIFO: .fifo
        default: .socket
        }
        header = kind == .regularFile ? Self.readHeader(url.path) : []
    }

    /// Whether `url` names `/dev/null`, however it is spelled (`/dev/./null`, `/tmp/../dev/null`).
    static func isAnonymous(_ url: URL) -> Bool {
        url.isFileURL && url.standardizedFileURL.path == "/dev/null"
    }

    /// A SQLite database file: SQLite's 16-byte header string, in a regular file. A link is
    /// followed only to check that it leads to one.
    var isSQLiteDatabase: Bool {
        switch kind {
        case .regularFile: Self.hasSQLiteHeader(header)
        case .symbolicLink: resolved.map { $0.kind == .regularFile && Self.hasSQLiteHeader($0.header) } ?? false
        default: false
        }
    }

    /// What a symbolic link at the path leads to (nil if it is not a link or leads nowhere).
    var resolved: StoreFile? {
        guard kind == .symbolicLink else { return nil }
        let target = url.resolvingSymlinksInPath()
        guard target.path != url.path else { return nil }
        return StoreFile(target)
    }

    static func hasSQLiteHeader(_ header: [UInt8]) -> Bool {
        header.count == 100 && header.starts(with: Array("SQLite format 3\u{0}".utf8))
    }

    /// The first 100 bytes of the regular file at `path` (fewer if it is shorter).
    private static func readHeader(_ path: String) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 100)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 100) }
        return count > 0 ? Array(bytes.prefix(count)) : []
    }

    /// What the entry is, in words, for errors.
    var description: String {
        switch kind {
        case .nothing: "nothing"
        case .unreachable: "a path the system cannot look up"
        case .anonymous: "/dev/null"
        case .regularFile: header.isEmpty ? "an empty file" : "a file that is not a store of this type"
        case .directory: "a directory"
        case .symbolicLink: "a symbolic link (never followed to change its target)"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        }
    }

    /// 259 (the file is not in the expected format), naming what was found instead: the error
    /// every store-file operation throws on a path it does not recognise, having touched nothing.
    func notAStoreError(_ storeType: String) -> NSError {
        CoreDataError.make(NSFileReadCorruptFileError,
                           "\(url.path) is \(description), not a \(storeType) store; it was left untouched.",
                           [NSURLErrorKey: url, NSFilePathErrorKey: url.path])
    }
}
