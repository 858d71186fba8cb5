import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// Opens a client WebSocket with swift-nio's own upgrade handlers: enough for a connection to
/// localhost, without the TLS stack a general-purpose client would compile.
enum WebSocketUpgrade {
    /// Chromium sends a screenshot as one text frame of a few megabytes.
    static let maxMessageSize = 64 << 20

    struct Declined: Error, CustomStringConvertible {
        let endpoint: URL
        var description: String { "\(endpoint) did not accept a WebSocket upgrade" }
    }

    private enum Outcome: Sendable {
        case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case declined
    }

    static func connect(to endpoint: URL) async throws -> NIOAsyncChannel<WebSocketFrame, WebSocketFrame> {
        let host = endpoint.host ?? "127.0.0.1"
        let port = endpoint.port ?? 80
        let outcome = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let upgrader = NIOTypedWebSocketClientUpgrader<Outcome>(maxFrameSize: maxMessageSize) { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            // Whole messages, however the sender split them into frames.
                            try channel.pipeline.syncOperations.addHandler(NIOWebSocketFrameAggregator(
                                minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1 << 16, maxAccumulatedFrameSize: maxMessageSize))
                            return .upgraded(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                        }
                    }
                    // Chromium refuses DevTools connections whose Host is not an address or localhost.
                    var headers = HTTPHeaders()
                    headers.add(name: "Host", value: "\(host):\(port)")
                    headers.add(name: "Content-Length", value: "0")
                    let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: endpoint.path, headers: headers)
                    let configuration = NIOTypedHTTPClientUpgradeConfiguration<Outcome>(
                        upgradeRequestHead: head, upgraders: [upgrader],
                        notUpgradingCompletionHandler: { channel in channel.eventLoop.makeSucceededFuture(.declined) }
                    )
                    return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: configuration))
                }
            }
        guard case .upgraded(let channel) = try await outcome.get() else { throw Declined(endpoint: endpoint) }
        return channel
    }
}
