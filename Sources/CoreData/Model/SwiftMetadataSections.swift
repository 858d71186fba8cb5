/// The `swift5_type_metadata` section of every ELF image mapped into the process: the list of
/// type context descriptors the Swift runtime itself searches when it looks a type up by name.
///
/// The runtime registers these sections privately, and section headers are not mapped into
/// memory, so each mapped file (from `/proc/self/maps`) has its ELF section table read from
/// disk: where the section lies relative to the image, placed at the address the file was
/// mapped at. Files that are not 64-bit little-endian ELF, or that cannot be read, are
/// skipped; a section is only used if it lies wholly inside that file's mappings.
enum SwiftMetadataSections {
    /// Each image's type-metadata records (32-bit relative pointers), read once: images that
    /// `dlopen` loads later are not seen.
    // Immutable once made, and it points into read-only mapped sections that live as long as
    // their images.
    nonisolated(unsafe) static let typeMetadataRecords: [UnsafeRawBufferPointer] = {
        #if os(Linux)
        return mappedImages().compactMap(typeMetadataSection)
        #else
        return []
        #endif
    }()

    struct MappedImage {
        let path: String
        /// The address the file's first byte is mapped at.
        let base: UInt
        /// Every range the file is mapped at.
        let ranges: [Range<UInt>]
    }

    /// The files mapped into the process, with where they are mapped.
    static func mappedImages() -> [MappedImage] {
        // Read to the end: /proc reports a size of 0, and a read by size stops after one page.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps"),
              let data = try? handle.readToEnd() else { return [] }
        try? handle.close()
        let maps = String(decoding: data, as: UTF8.self)
        var order: [String] = []
        var bases: [String: UInt] = [:]
        var ranges: [String: [Range<UInt>]] = [:]
        for line in maps.split(separator: "\n") {
            // start-end perms offset dev inode path
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6 else { continue }
            let path = String(fields[5].drop { $0 == " " })
            guard path.hasPrefix("/") else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                  let offset = UInt(fields[2], radix: 16) else { continue }
            if ranges[path] == nil { order.append(path) }
            ranges[path, default: []].append(start..<end)
            if offset == 0, bases[path] == nil { bases[path] = start }
        }
        return order.compactMap { path in
            bases[path].map { MappedImage(path: path, base: $0, ranges: ranges[path] ?? []) }
        }
    }

    /// The image's `swift5_type_metadata` section in memory, if it has one.
    static func typeMetadataSection(of image: MappedImage) -> UnsafeRawBufferPointer? {
        guard let file = ELFFile(path: image.path),
              let section = file.section(named: "swift5_type_metadata"),
              let loadBias = file.loadBias(mappedAt: image.base) else { return nil }
        let (start, overflow) = loadBias.addingReportingOverflow(section.address)
        guard !overflow, section.size > 0, section.size % 4 == 0,
              image.ranges.contains(where: { $0.lowerBound <= start && start + section.size <= $0.upperBound }),
              let pointer = UnsafeRawPointer(bitPattern: start) else { return nil }
        return UnsafeRawBufferPointer(start: pointer, count: Int(section.size))
    }
}
