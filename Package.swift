// swift-tools-version: 6.0
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "PortableCoreData",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "CoreData", targets: ["CoreData"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "602.0.0"),
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
        .target(name: "CoreData", dependencies: ["CSQLite", "CoreDataMacros"]),
        .executableTarget(name: "CoreDataStress", dependencies: ["CoreData"]),
        .testTarget(name: "CoreDataTests", dependencies: ["CoreData"]),
    ]
)
