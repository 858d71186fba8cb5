import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// A connection to Chromium's DevTools endpoint: JSON-RPC over one WebSocket.
///
/// Commands carry an `id` and get one reply with the same `id`; everything else Chromium sends
/// is an event (`Page.frameNavigated`), kept in arrival order for the test to look at. Pages
/// attached with `flatten: true` share this socket, told apart by `sessionId`.
final class DevToolsConnection: Sendable {
    /// An error Chromium answered a command with, or a reply that never came.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private struct State {
        var nextID = 1
        var waiting: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
        var events: [JSONValue] = []
        var closed = false
    }

    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    private let state = Mutex(State())

    private init(outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>) {
        self.outbound = outbound
    }

    /// Connects to `endpoint` (`ws://127.0.0.1:PORT/devtools/browser/ID`), runs `body` with
    /// the connection, and closes it.
    static func withConnection<T: Sendable>(to endpoint: URL, _ body: (DevToolsConnection) async throws -> T) async throws -> T {
        let channel = try await WebSocketUpgrade.connect(to: endpoint)
        return try await channel.executeThenClose { inbound, outbound in
            let connection = DevToolsConnection(outbound: outbound)
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await connection.receive(inbound) }
                defer { group.cancelAll() }
                return try await body(connection)
            }
        }
    }

    /// Sends `method` with `params`, to the page of `session` or to the browser, and returns
    /// the reply's `result`.
    @discardableResult
    func call(_ method: String, _ params: JSONValue = [:], session: String? = nil, timeout: Duration = .seconds(30)) async throws -> JSONValue {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        var message: JSONValue = ["id": .number(Double(id)), "method": .string(method), "params": params]
        if let session, case .object(var members) = message {
            members["sessionId"] = .string(session)
            message = .object(members)
        }
        let text = String(decoding: try JSONEncoder().encode(message), as: UTF8.self)
        let timer = Task {
            try await Task.sleep(for: timeout)
            resume(id, with: .failure(Failure(description: "no reply to \(method) within \(timeout)")))
        }
        defer { timer.cancel() }
        let reply = try await withCheckedThrowingContinuation { continuation in
            let closed = state.withLock { state in
                if !state.closed { state.waiting[id] = continuation }
                return state.closed
            }
            if closed {
                continuation.resume(throwing: Failure(description: "the DevTools connection closed before \(method)"))
                return
            }
            // Clients mask every frame they send (RFC 6455 §5.3); Chromium closes on one that is not.
            let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: ByteBuffer(string: text))
            Task { [outbound] in
                do { try await outbound.write(frame) } catch { self.resume(id, with: .failure(error)) }
            }
        }
        if let error = reply["error"] {
            throw Failure(description: "\(method) failed: \(error)")
        }
        return reply["result"] ?? .null
    }

    /// The events received so far, oldest first.
    var events: [JSONValue] {
        state.withLock { $0.events }
    }

    private func resume(_ id: Int, with result: Result<JSONValue, any Error>) {
        state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(with: result)
    }

    /// Routes every message Chromium sends until the socket closes: replies to their callers,
    /// events to the log. Anyone still waiting then hears that the connection closed.
    private func receive(_ inbound: NIOAsyncChannelInboundStream<WebSocketFrame>) async throws {
        defer {
            let waiting = state.withLock { state in
                state.closed = true
                defer { state.waiting = [:] }
                return state.waiting
            }
            for continuation in waiting.values {
                continuation.resume(throwing: Failure(description: "the DevTools connection closed"))
            }
        }
        for try await frame in inbound {
            switch frame.opcode {
            case .text:
                let message = try JSONDecoder().decode(JSONValue.self, from: Data(frame.unmaskedData.readableBytesView))
                if let id = message["id"]?.int {
                    resume(id, with: .success(message))
                } else {
                    state.withLock { $0.events.append(message) }
                }
            case .ping:
                try await outbound.write(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
            case .connectionClose:
                return
            default:
                continue
            }
        }
    }
}
