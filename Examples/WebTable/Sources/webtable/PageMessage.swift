import Foundation
import WorldCupStore

/// What the server sends a page over its WebSocket, one JSON text message each, told apart
/// by `kind`.
enum PageMessage: Encodable, Sendable {
    /// The whole table, once, when the page connects.
    case snapshot(TableSnapshot)
    /// One batch of the controller's reports.
    case batch(ChangeBatch)
    /// A command from this page could not be applied.
    case failure(String)

    private enum Key: String, CodingKey {
        case kind, sections, number, rows, message
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .snapshot(let table):
            try container.encode("snapshot", forKey: .kind)
            try container.encode(table.sections, forKey: .sections)
        case .batch(let batch):
            try container.encode("batch", forKey: .kind)
            try container.encode(batch.number, forKey: .number)
            try container.encode(batch.sections, forKey: .sections)
            try container.encode(batch.rows, forKey: .rows)
        case .failure(let message):
            try container.encode("error", forKey: .kind)
            try container.encode(message, forKey: .message)
        }
    }

    /// The message as the text of one WebSocket frame.
    var text: String {
        // Encoding these plain values cannot fail.
        String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self)
    }
}
