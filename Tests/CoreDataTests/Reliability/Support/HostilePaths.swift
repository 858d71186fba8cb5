import CoreData
import Foundation

/// A temporary folder full of things that are not stores (a device or FIFO and socket, a
/// directory, a link leading outside, read-only, text and empty files, a path through `..`, a
/// very long path), with a record of each entry, so a test can hand every path to an API and
/// then show that nothing changed: same type, permissions, size and content, and no new entry.
final class HostilePaths {
    /// What an entry is, as `lstat` and its bytes tell; links are recorded, never followed.
    struct Fingerprint: Equatable {
        var type: mode_t
        var permissions: mode_t
        var size: Int64
        var device: UInt64
        var content: Data?
        var linkTarget: String?
    }

    let folder = TemporaryDirectory()
    /// Where the link points: a file outside `folder`.
    let outside = TemporaryDirectory()
    /// Each hostile path by its name in the test's messages.
    private(set) var paths: [(name: String, url: URL)] = []

    init() throws {
        let precious = outside.file("precious.txt")
        try Data("kept outside\n".utf8).write(to: precious)
        // A device only root may make: a copy of /dev/null's node. Otherwise a FIFO and a socket.
        if getuid() == 0 {
            // Device number 1:3 in glibc's encoding (`makedev` is a C macro Swift cannot see).
            try add("device") { mknod($0.path, S_IFCHR | 0o666, dev_t((1 << 8) | 3)) }
        }
        try add("fifo") { mkfifo($0.path, 0o644) }
        try add("socket", make: Self.bindSocket)
        try add("directory") { url in
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            try Data("inside\n".utf8).write(to: url.appendingPathComponent("keep.txt"))
            return 0
        }
        try add("link to a file outside") { symlink(precious.path, $0.path) }
        try add("read-only file") { url in
            try Data("read only\n".utf8).write(to: url)
            return chmod(url.path, 0o444)
        }
        try add("text file") { try Data("plain text, not a store\n".utf8).write(to: $0); return 0 }
        try add("empty file") { FileManager.default.createFile(atPath: $0.path, contents: Data()) ? 0 : -1 }
        // `..` leading out of the folder to the file the link also names.
        paths.append(("path with ..", URL(fileURLWithPath: folder.url.path + "/../" + outside.url.lastPathComponent + "/precious.txt")))
        // Nested 200-character folders to a text file about 3,400 characters down.
        var deep = folder.url
        for level in 0..<16 { deep.appendPathComponent(String(repeating: Character(String(level % 10)), count: 200)) }
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        let long = deep.appendingPathComponent("store.sqlite")
        try Data("deep text\n".utf8).write(to: long)
        paths.append(("very long path", long))
    }

    private func add(_ name: String, make: (URL) throws -> Int32) throws {
        let url = folder.file(name.replacingOccurrences(of: " ", with: "-"))
        guard try make(url) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        paths.append((name, url))
    }

    private static func bindSocket(_ url: URL) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in url.path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Every entry under both folders (links not followed) with its fingerprint.
    func fingerprints() -> [String: Fingerprint] {
        var result: [String: Fingerprint] = [:]
        for root in [folder.url, outside.url] {
            var pending = [root.path]
            while let path = pending.popLast() {
                let print = Self.fingerprint(path)
                result[path] = print
                if print?.type == S_IFDIR, let names = try? FileManager.default.contentsOfDirectory(atPath: path) {
                    pending += names.map { path + "/" + $0 }
                }
            }
        }
        return result.compactMapValues { $0 }
    }

    static func fingerprint(_ path: String) -> Fingerprint? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        let type = status.st_mode & S_IFMT
        return Fingerprint(
            type: type, permissions: status.st_mode & 0o7777, size: Int64(status.st_size), device: UInt64(status.st_rdev),
            content: type == S_IFREG ? FileManager.default.contents(atPath: path) : nil,
            linkTarget: type == S_IFLNK ? try? FileManager.default.destinationOfSymbolicLink(atPath: path) : nil)
    }
}
