/// The section cache's file: a compact binary layout written and read in one pass.
///
/// A cache is only worth having if reading it beats fetching: JSON with an object URI a row
/// took longer to decode than the fetch it replaced, so rows are stored as an entity number and
/// a primary key, sections as runs, and sort values as tagged bytes.
struct SectionCacheFile {
    struct Row {
        /// Index into `entityNames`.
        var entity: Int
        var primaryKey: Int64
        var key: [CachedValue]
    }

    var signature: String
    var storeStamp: String
    var entityNames: [String]
    /// Section names and how many consecutive rows each holds.
    var sections: [(name: String, count: Int)]
    var rows: [Row]

    private static let magic = Array("PCDFRC1\n".utf8)

    /// Whether `file` is one of ours (a regular file, not a link, starting with our header):
    /// the only entries in the cache directory a controller removes or writes over.
    static func isCacheFile(_ file: StoreFile) -> Bool {
        file.kind == .regularFile && file.header.starts(with: magic)
    }

    init(signature: String, storeStamp: String, entityNames: [String], sections: [(name: String, count: Int)], rows: [Row]) {
        self.signature = signature
        self.storeStamp = storeStamp
        self.entityNames = entityNames
        self.sections = sections
        self.rows = rows
    }

    func encoded() -> Data {
        var writer = ByteWriter()
        writer.bytes.append(contentsOf: Self.magic)
        writer.string(signature)
        writer.string(storeStamp)
        writer.count(entityNames.count)
        entityNames.forEach { writer.string($0) }
        writer.count(sections.count)
        for section in sections {
            writer.string(section.name)
            writer.count(section.count)
        }
        writer.count(rows.count)
        for row in rows {
            writer.count(row.entity)
            writer.int64(row.primaryKey)
            writer.count(row.key.count)
            row.key.forEach { $0.write(to: &writer) }
        }
        return Data(writer.bytes)
    }

    /// Nil for anything that is not a whole file of this layout.
    init?(decoding data: Data) {
        var reader = ByteReader(Array(data))
        guard reader.take(Self.magic.count).map(Array.init) == Self.magic,
              let signature = reader.string(), let storeStamp = reader.string(),
              let entityCount = reader.count()
        else { return nil }
        var entityNames: [String] = []
        for _ in 0..<entityCount {
            guard let name = reader.string() else { return nil }
            entityNames.append(name)
        }
        guard let sectionCount = reader.count() else { return nil }
        var sections: [(name: String, count: Int)] = []
        for _ in 0..<sectionCount {
            guard let name = reader.string(), let count = reader.count() else { return nil }
            sections.append((name, count))
        }
        guard let rowCount = reader.count() else { return nil }
        var rows: [Row] = []
        rows.reserveCapacity(rowCount)
        for _ in 0..<rowCount {
            guard let entity = reader.count(), entity < entityNames.count,
                  let primaryKey = reader.int64(), let keyCount = reader.count()
            else { return nil }
            var key: [CachedValue] = []
            for _ in 0..<keyCount {
                guard let value = CachedValue(reading: &reader) else { return nil }
                key.append(value)
            }
            rows.append(Row(entity: entity, primaryKey: primaryKey, key: key))
        }
        guard reader.isAtEnd, sections.reduce(0, { $0 + $1.count }) == rows.count else { return nil }
        self.init(signature: signature, storeStamp: storeStamp, entityNames: entityNames, sections: sections, rows: rows)
    }
}

/// A sort value in a form the cache file can hold.
enum CachedValue {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case decimal(String)
    case string(String)
    case date(Double)
    case data(Data)
    case uuid(UUID)
    case url(URL)

    init?(_ value: ConstantValue) {
        switch value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .decimal(let value): self = .decimal("\(value)")
        case .string(let value): self = .string(value)
        case .date(let value): self = .date(value.timeIntervalSinceReferenceDate)
        case .data(let value): self = .data(value)
        case .uuid(let value): self = .uuid(value)
        case .url(let value): self = .url(value)
        case .object: return nil
        }
    }

    var value: ConstantValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .decimal(let value): Decimal(string: value).map { .decimal($0) } ?? .null
        case .string(let value): .string(value)
        case .date(let value): .date(Date(timeIntervalSinceReferenceDate: value))
        case .data(let value): .data(value)
        case .uuid(let value): .uuid(value)
        case .url(let value): .url(value)
        }
    }

    /// A tag byte, then the payload.
    func write(to writer: inout ByteWriter) {
        switch self {
        case .null: writer.bytes.append(0)
        case .bool(let value): writer.bytes += [1, value ? 1 : 0]
        case .int(let value): writer.bytes.append(2); writer.int64(value)
        case .double(let value): writer.bytes.append(3); writer.int64(Int64(bitPattern: value.bitPattern))
        case .decimal(let value): writer.bytes.append(4); writer.string(value)
        case .string(let value): writer.bytes.append(5); writer.string(value)
        case .date(let value): writer.bytes.append(6); writer.int64(Int64(bitPattern: value.bitPattern))
        case .data(let value): writer.bytes.append(7); writer.count(value.count); writer.bytes += value
        case .uuid(let value): writer.bytes.append(8); writer.string(value.uuidString)
        case .url(let value): writer.bytes.append(9); writer.string(value.absoluteString)
        }
    }

    init?(reading reader: inout ByteReader) {
        switch reader.take(1)?.first {
        case 0: self = .null
        case 1: guard let flag = reader.take(1)?.first else { return nil }; self = .bool(flag != 0)
        case 2: guard let value = reader.int64() else { return nil }; self = .int(value)
        case 3: guard let bits = reader.int64() else { return nil }; self = .double(Double(bitPattern: UInt64(bitPattern: bits)))
        case 4: guard let text = reader.string() else { return nil }; self = .decimal(text)
        case 5: guard let text = reader.string() else { return nil }; self = .string(text)
        case 6: guard let bits = reader.int64() else { return nil }; self = .date(Double(bitPattern: UInt64(bitPattern: bits)))
        case 7: guard let count = reader.count(), let bytes = reader.take(count) else { return nil }; self = .data(Data(bytes))
        case 8: guard let text = reader.string(), let uuid = UUID(uuidString: text) else { return nil }; self = .uuid(uuid)
        case 9: guard let text = reader.string(), let url = URL(string: text) else { return nil }; self = .url(url)
        default: return nil
        }
    }
}

/// Little-endian integers and length-prefixed strings, appended to a byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func int64(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    mutating func count(_ value: Int) { int64(Int64(value)) }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        count(utf8.count)
        bytes += utf8
    }
}

/// Reads what `ByteWriter` wrote; every read is nil past the end or on a nonsensical length.
struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func int64() -> Int64? {
        guard let slice = take(8) else { return nil }
        var value: Int64 = 0
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: slice) }
        return Int64(littleEndian: value)
    }

    mutating func count() -> Int? {
        guard let value = int64(), value >= 0, value <= Int64(bytes.count) else { return nil }
        return Int(value)
    }

    mutating func string() -> String? {
        guard let count = count(), let slice = take(count) else { return nil }
        return String(decoding: slice, as: UTF8.self)
    }
}
