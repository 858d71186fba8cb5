import CSQLite
import Foundation

/// The SQLite side of recognising a store file: the database and the companions SQLite keeps
/// beside it (`-wal`, `-shm`, `-journal`), which it would otherwise open and write whatever
/// they are.
extension StoreFile {
    /// Throws 259 unless the path is nothing yet, `/dev/null`, or a SQLite database (a link to
    /// one included, as SQLite follows it) whose companions are SQLite's own. Touches nothing.
    static func checkedForSQLite(_ url: URL) throws -> StoreFile {
        let file = StoreFile(url)
        switch file.kind {
        case .nothing, .anonymous: break
        default: guard file.isSQLiteDatabase else { throw file.notAStoreError(NSSQLiteStoreType) }
        }
        if file.kind != .anonymous { try file.checkSQLiteCompanions() }
        return file
    }

    /// As `checkedForSQLite`, for an operation that empties or overwrites the database: a
    /// symbolic link is refused too, as the operation would reach through it to its target.
    static func checkedForRewritingSQLite(_ url: URL) throws -> StoreFile {
        let file = try checkedForSQLite(url)
        guard file.kind != .symbolicLink else { throw file.notAStoreError(NSSQLiteStoreType) }
        return file
    }

    /// Throws 259 when a `-wal`, `-shm` or `-journal` entry beside the database is anything but
    /// a regular file that is empty or starts as SQLite writes that file: SQLite would open
    /// and overwrite it (through a link, its target) as its own.
    func checkSQLiteCompanions() throws {
        let database = (resolved ?? self).url.path
        for (suffix, magics) in Self.companionMagics {
            let companion = StoreFile(URL(fileURLWithPath: database + suffix))
            guard companion.kind != .nothing else { continue }
            let belongs = companion.kind == .regularFile
                && (magics.isEmpty || companion.header.isEmpty || magics.contains { companion.header.starts(with: $0) })
            guard belongs else { throw companion.notAStoreError("SQLite companion (\(suffix))") }
        }
    }

    /// The first bytes SQLite writes into each companion file: the WAL header's magic number
    /// (either byte order of checksums) and the rollback journal's magic. The shared-memory
    /// index has none to rely on: a process killed while creating it leaves it zeroed or
    /// half-written, and SQLite rebuilds it from the WAL, so any regular file is taken.
    private static let companionMagics: [(String, [[UInt8]])] = [
        ("-wal", [[0x37, 0x7F, 0x06, 0x82], [0x37, 0x7F, 0x06, 0x83]]),
        ("-shm", []),
        // A journal in PERSIST mode has its header zeroed when a transaction ends.
        ("-journal", [[0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7], [0, 0, 0, 0, 0, 0, 0, 0]]),
    ]
}
