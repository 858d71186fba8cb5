import Foundation
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import WorldCupStore

/// The HTTP side: serves the page, and at `/live` upgrades to the WebSocket that carries the
/// table to the page and the page's commands back.
struct WebTableServer {
    let table: LiveTable
    let files: PageFiles

    /// Longest command a page may send; commands are a few dozen bytes.
    private static let maxCommandSize = 16 * 1024

    /// Serves until the process gets SIGINT or SIGTERM. Prints the page's address once the port
    /// is bound (`port` 0 picks a free one, and the printed address names it).
    func run(host: String, port: Int) async throws {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.get("/") { _, _ in files.response(for: "/") ?? Response(status: .notFound) }
        router.get("/:file") { request, _ in files.response(for: request.uri.path) ?? Response(status: .notFound) }
        router.ws("/live") { inbound, outbound, _ in
            try await serve(inbound: inbound, outbound: outbound)
        }
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                let address = host.contains(":") ? "[\(host)]" : host  // an IPv6 address in a URL
                say("WebTable is live at http://\(address):\(bound)/")
            }
        )
        try await app.runService()
    }

    /// One page's socket: the feed goes out (snapshot, then batches) while commands come in.
    private func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let feed = try await table.connect()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await message in feed.messages { try await outbound.write(.text(message)) }
            }
            for try await message in inbound.messages(maxSize: Self.maxCommandSize) {
                guard case .text(let text) = message else { continue }
                guard let command = try? JSONDecoder().decode(TeamCommand.self, from: Data(text.utf8)) else {
                    say("ignored a message that is not a command: \(text.prefix(80))")
                    continue
                }
                await table.apply(command, from: feed)
            }
            // The page went away: stop its writer, which ends its feed.
            group.cancelAll()
        }
    }
}
