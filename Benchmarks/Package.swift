// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, which depends on where the repository was
/// cloned (`main`, a worktree, CI's checkout); read it rather than assume it.
let rootPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// Benchmarks of Portable Core Data side by side with GRDB and direct sqlite3 calls.
///
/// A package of its own, so the library's test build never compiles GRDB (DESIGN.md §3):
/// `swift run -c release --package-path Benchmarks bench --help`
let package = Package(
    name: "PortableCoreDataBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The floor: the system libsqlite3, the same library the CoreData module and GRDB link.
        .systemLibrary(
            name: "BenchSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .executableTarget(
            name: "bench",
            dependencies: [
                .product(name: "CoreData", package: rootPackage),
                .product(name: "SwiftData", package: rootPackage),
                .product(name: "GRDB", package: "GRDB.swift"),
                "BenchSQLite",
            ]
        ),
    ]
)

// The PostgreSQL cases (`--postgres URL`) compare the root package's CoreDataPostgreSQL store with
// postgres-nio used by hand. They cost minutes of compiling (SwiftNIO, BoringSSL), so the root
// package's switch leaves them out here too:
// `PORTABLE_CORE_DATA_WITHOUT_POSTGRESQL=1 swift build -c release --package-path Benchmarks`.
if ProcessInfo.processInfo.environment["PORTABLE_CORE_DATA_WITHOUT_POSTGRESQL"] == nil {
    package.dependencies.append(.package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"))
    let bench = package.targets.first { $0.name == "bench" }!
    bench.dependencies += [
        .product(name: "CoreDataPostgreSQL", package: rootPackage),
        .product(name: "PostgresNIO", package: "postgres-nio"),
    ]
    bench.swiftSettings = [.define("POSTGRESQL_CASES")]
}
