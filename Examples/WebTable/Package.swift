// swift-tools-version: 6.0
import Foundation
import PackageDescription

/// SwiftPM names a path dependency after its folder, which depends on where the repository was
/// cloned (`main`, a worktree, CI's checkout); read it rather than assume it.
let rootPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

/// The World Cup table in a browser, kept live by an `NSFetchedResultsController`'s change
/// reports sent over a WebSocket.
///
/// A package of its own, so the library's build never compiles a web server (DESIGN.md §8):
/// `swift run --package-path Examples/WebTable webtable`
let package = Package(
    name: "WebTable",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    ],
    targets: [
        // The model, the controller's fetch request and the commands: shared by the server, the
        // one-shot commands of a second process, and the test's own look at the store.
        .target(
            name: "WorldCupStore",
            dependencies: [.product(name: "CoreData", package: rootPackage)]
        ),
        .executableTarget(
            name: "webtable",
            dependencies: [
                "WorldCupStore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            resources: [.copy("Page")]
        ),
        // Drives headless Chromium over the DevTools protocol; the client speaks WebSocket with
        // swift-nio's own handlers (what the server already links), not WSClient, whose TLS
        // support would compile BoringSSL for a connection to localhost.
        .testTarget(
            name: "WebTableTests",
            dependencies: [
                "WorldCupStore",
                "webtable",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
    ]
)
