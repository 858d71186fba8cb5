/// The few parts of a 64-bit little-endian ELF file the metadata search needs, read with
/// bounds checks (the file is whatever happens to be mapped) and closed at once.
struct ELFFile {
    struct Section {
        let address: UInt
        let size: UInt
    }

    private let programHeaders: [(type: UInt64, offset: UInt64, address: UInt64)]
    private let sections: [(nameOffset: Int, address: UInt64, size: UInt64)]
    private let names: [UInt8]

    init?(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        func read(at offset: UInt64, count: Int) -> [UInt8]? {
            guard count > 0, count <= 16 << 20, (try? handle.seek(toOffset: offset)) != nil,
                  let data = try? handle.read(upToCount: count), data.count == count else { return nil }
            return Array(data)
        }
        guard let header = read(at: 0, count: 64), header[0..<4] == [0x7F, 0x45, 0x4C, 0x46],
              header[4] == 2, header[5] == 1 else { return nil }   // ELFCLASS64, little-endian
        let (programEntrySize, programCount) = (Int(Self.integer(header, 54, 2)), Int(Self.integer(header, 56, 2)))
        let (sectionEntrySize, sectionCount) = (Int(Self.integer(header, 58, 2)), Int(Self.integer(header, 60, 2)))
        let namesIndex = Int(Self.integer(header, 62, 2))
        guard programEntrySize >= 56, sectionEntrySize >= 64, namesIndex < sectionCount,
              let programTable = read(at: Self.integer(header, 32, 8), count: programEntrySize * programCount),
              let sectionTable = read(at: Self.integer(header, 40, 8), count: sectionEntrySize * sectionCount)
        else { return nil }
        programHeaders = (0..<programCount).map { index in
            let entry = index * programEntrySize
            return (Self.integer(programTable, entry, 4), Self.integer(programTable, entry + 8, 8), Self.integer(programTable, entry + 16, 8))
        }
        sections = (0..<sectionCount).map { index in
            let entry = index * sectionEntrySize
            return (Int(Self.integer(sectionTable, entry, 4)), Self.integer(sectionTable, entry + 16, 8), Self.integer(sectionTable, entry + 32, 8))
        }
        let namesEntry = namesIndex * sectionEntrySize
        guard let names = read(at: Self.integer(sectionTable, namesEntry + 24, 8),
                               count: Int(clamping: Self.integer(sectionTable, namesEntry + 32, 8))) else { return nil }
        self.names = names
    }

    /// Where the image's virtual address 0 lies, given where its file offset 0 is mapped: the
    /// loadable segment that starts at file offset 0 is mapped at its own virtual address
    /// plus the bias (zero for a fixed-address executable).
    func loadBias(mappedAt base: UInt) -> UInt? {
        guard let first = programHeaders.first(where: { $0.type == 1 && $0.offset == 0 }),   // PT_LOAD
              base >= first.address else { return nil }
        return base - UInt(first.address)
    }

    /// The first section called `name`: its address relative to the image and its size.
    func section(named name: String) -> Section? {
        let wanted = Array(name.utf8) + [0]
        for section in sections where section.nameOffset + wanted.count <= names.count
            && names[section.nameOffset..<(section.nameOffset + wanted.count)].elementsEqual(wanted) {
            return Section(address: UInt(section.address), size: UInt(section.size))
        }
        return nil
    }

    private static func integer(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> UInt64 {
        (0..<size).reversed().reduce(0) { $0 << 8 | UInt64(bytes[offset + $1]) }
    }
}
