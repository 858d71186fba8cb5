// swift-tools-version: 6.0
import CompilerPluginSupport
import Foundation
import PackageDescription

/// One runnable port of a chapter's app: `swift run <name>`.
func example(_ name: String, folder: String, exclude: [String] = [], resources: [Resource]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["CoreData", "ExampleSupport"],
        path: "Examples/\(folder)",
        exclude: exclude,
        resources: resources
    )
}

let package = Package(
    name: "PortableCoreData",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "CoreData", targets: ["CoreData"]),
        .library(name: "SwiftData", targets: ["SwiftData"]),
        .plugin(name: "CoreDataModelCompiler", targets: ["CoreDataModelCompiler"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .macro(
            name: "CoreDataMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(name: "CoreData", dependencies: [
            "CSQLite", "CoreDataMacros",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "OrderedCollections", package: "swift-collections"),
            .product(name: "DequeModule", package: "swift-collections"),
        ]),
        // SwiftData's API over the CoreData module: `@Model` classes backed by managed objects.
        .macro(
            name: "SwiftDataMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(name: "SwiftData", dependencies: ["CoreData", "SwiftDataMacros"]),
        .testTarget(name: "SwiftDataTests", dependencies: ["SwiftData", "ProgramTestSupport"]),
        // A model file in the style of Apple's sample apps, which must compile here unchanged.
        .testTarget(name: "SwiftDataSampleTests", dependencies: ["SwiftData"]),
        // Our model compiler, and the build-tool plugin that runs it on a target's models.
        .executableTarget(name: "momc", dependencies: ["CoreData"]),
        .plugin(name: "CoreDataModelCompiler", capability: .buildTool(), dependencies: ["momc"]),
        .target(name: "ExampleSupport", dependencies: ["CoreData"], path: "Examples/Support"),
        example("hitlist", folder: "HitList", resources: [.copy("Model/HitList.xcdatamodeld")]),
        example("bowties", folder: "BowTies", resources: [.copy("Model/BowTies.xcdatamodeld"), .copy("Resources/SampleData.plist")]),
        example("dogwalk", folder: "DogWalk", resources: [.copy("Model/DogWalk.xcdatamodeld")]),
        example("bubbletea", folder: "BubbleTeaFinder", resources: [.copy("Model/BubbleTeaFinder.xcdatamodeld"), .copy("Resources/seed.json")]),
        example("worldcup", folder: "WorldCup", exclude: ["SwiftData"], resources: [.copy("Model/WorldCup.xcdatamodeld"), .copy("Resources/seed.json")]),
        // World Cup written with SwiftData (Examples/WorldCup/SwiftData), on the same seed file.
        .executableTarget(
            name: "worldcup-swiftdata",
            dependencies: ["SwiftData", "ExampleSupport"],
            path: "Examples/WorldCup",
            exclude: ["Model", "main.swift", "Team.swift", "TeamTable.swift"],
            sources: ["SwiftData"],
            resources: [.copy("Resources/seed.json")]
        ),
        .target(name: "StressFixtures", dependencies: ["CoreData"]),
        // Runs the package's executables from tests, for the CoreData and SwiftData suites both.
        .target(name: "ProgramTestSupport", path: "Tests/ProgramTestSupport"),
        .executableTarget(name: "CoreDataStress", dependencies: ["CoreData", "StressFixtures"]),
        // Compiles Model/FeedbackModel.xcdatamodeld into FeedbackModel.momd with the plugin, as
        // an app's build would (ModelCompilerPluginTests loads it through Bundle.module).
        .testTarget(
            name: "CoreDataTests",
            dependencies: ["CoreData", "StressFixtures", "ProgramTestSupport", .product(name: "Logging", package: "swift-log")],
            resources: [.copy("Fixtures"), .copy("Model/FeedbackModel.xcdatamodeld")],
            plugins: ["CoreDataModelCompiler"]
        ),
    ]
)

// The PostgreSQL store's driver (postgres-nio, with SwiftNIO and BoringSSL: minutes of
// compiling) is a product of its own, so `import CoreData` never builds a network stack.
// scripts/tsan leaves it out of the sanitizer build, which checks the library's own locking.
if ProcessInfo.processInfo.environment["PORTABLE_CORE_DATA_WITHOUT_POSTGRESQL"] == nil {
    package.dependencies.append(.package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"))
    package.products.append(.library(name: "CoreDataPostgreSQL", targets: ["CoreDataPostgreSQL"]))
    package.targets.append(.target(name: "CoreDataPostgreSQL", dependencies: ["CoreData", .product(name: "PostgresNIO", package: "postgres-nio")]))
    // So do its suites (Tests/CoreDataTests/PostgreSQL), the examples' `--store postgres://…` and
    // the stress program's, for the tests with several processes on one schema.
    for name in ["CoreDataTests", "ExampleSupport", "StressFixtures"] { package.targets.first { $0.name == name }!.dependencies.append("CoreDataPostgreSQL") }
}

// The documentation plugin (`swift package generate-documentation`), only when scripts/docs asks
// for it: SwiftPM compiles every plugin of the package graph at each clean build (about 10 s
// here, twice in CI with the sanitizer build), which ordinary builds and tests should not pay.
if ProcessInfo.processInfo.environment["PORTABLE_CORE_DATA_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
