/// A deterministic 32-byte digest (FNV-1a lanes), used for section cache file names and the
/// version hashes of stores written by this project's earlier releases (`LegacyVersionHash`).
///
/// Swift's `Hasher` is seeded per process, so it cannot compare a model with the one a store
/// was written with; this one gives the same bytes in every run.
enum StableHash {
    static func digest(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for lane in 0..<4 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 &+ UInt64(lane) &* 0x9E37_79B9_7F4A_7C15
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            withUnsafeBytes(of: hash.bigEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }
}
