import CoreData
import Foundation
import Testing

/// Input an attacker or a broken file can hand the library: object URIs from anywhere, and
/// string and binary values with every awkward byte.
///
/// `CORE_DATA_FUZZ_CASES` sets the number of generated URIs (20,000 by default),
/// `CORE_DATA_SEED` replays a run.
@Suite struct HostileInputTests {
    let directory = TemporaryDirectory()

    // MARK: URIs

    /// Builds URI strings from pieces near the valid form and from mutations of valid URIs.
    struct URIGenerator {
        var random: SplitMix64
        let validURIs: [String]
        let storeIdentifier: String

        mutating func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }

        mutating func noise(maxLength: Int) -> String {
            let pieces = "aZ09/:%?#@.-_~!$&'()*+,;= \u{0}\u{7F}é✓\u{301}\u{FFFD}\u{202E}🙂".map(String.init) + ["%00", "%2F", "%ZZ", "%", "\\", "\n"]
            return (0..<Int.random(in: 0...maxLength, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }

        mutating func next() -> String {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let scheme = pick(["x-coredata", "x-coredata", "X-CoreData", "x-coredata:", "http", "", "file", "x-coredata+ssh"])
                let slashes = pick(["//", "//", "/", "///", ""])
                let host = pick([storeIdentifier, storeIdentifier, storeIdentifier.lowercased(), UUID().uuidString, "", "..", "%00", noise(maxLength: 12), String(repeating: "A", count: 5000)])
                let entity = pick(["Book", "Film", "Item", "Tag", "book", "", "Z_PRIMARYKEY", "..", "%42ook", "Book%00", noise(maxLength: 8)])
                let key = pick(["p1", "p2", "p3", "p0", "p-1", "p", "P1", "p01", "p+1", "p1.0", "p 1", "p0x1", "p١",
                                "p9223372036854775807", "p9223372036854775808", "p99999999999999999999999",
                                "t\(UUID().uuidString)", "p\(Int64.random(in: .min ... .max, using: &random))", noise(maxLength: 6)])
                let extra = pick(["", "", "", "/", "/p1", "?x=1", "#frag", "/../Book/p1", noise(maxLength: 6)])
                return "\(scheme):\(slashes)\(host)/\(entity)/\(key)\(extra)"
            case 5..<8:
                var characters = Array(pick(validURIs))
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let index = Int.random(in: 0...characters.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: characters.insert(contentsOf: noise(maxLength: 3), at: index)
                    case 1 where index < characters.count: characters.remove(at: index)
                    default: if index < characters.count { characters[index] = pick(Array("/:p0-%tx")) }
                    }
                }
                return String(characters)
            default:
                return noise(maxLength: 60)
            }
        }
    }

    @Test func objectURIsFromAnywhereNeverCrashAndOnlyNameExistingObjects() throws {
        let cases = environmentInt("CORE_DATA_FUZZ_CASES", default: 20_000)
        let seed = SplitMix64.seedFromEnvironment()
        let container = try makeContainer(model: TestModels.library(), storeURL: directory.file("URIs.sqlite"))
        let coordinator = container.persistentStoreCoordinator
        let context = container.newBackgroundContext()
        let stored: [NSManagedObjectID: String] = try context.performAndWait {
            var titles: [NSManagedObjectID: String] = [:]
            var objects: [NSManagedObject] = []
            for (index, entity) in ["Book", "Film", "Book"].enumerated() {
                let item = NSEntityDescription.insertNewObject(forEntityName: entity, into: context)
                item.setValue("\(entity) \(index)", forKey: "title")
                objects.append(item)
            }
            objects.append(NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context))
            try context.save()
            for object in objects { titles[object.objectID] = object.string("title") ?? "" }
            return titles
        }
        let store = try #require(coordinator.persistentStores.first)
        var generator = URIGenerator(random: SplitMix64(seed: seed), validURIs: stored.keys.map { $0.uriRepresentation().absoluteString },
                                     storeIdentifier: store.identifier)
        var (notURLs, rejected, resolved, existing) = (0, 0, 0, 0)
        var failures: [String] = []
        for _ in 0..<cases where failures.count < 10 {
            let text = generator.next()
            guard let url = URL(string: text) else { notURLs += 1; continue }
            guard let id = coordinator.managedObjectID(forURIRepresentation: url) else { rejected += 1; continue }
            resolved += 1
            if id.isTemporaryID || id.persistentStore !== store || coordinator.managedObjectModel.entitiesByName[id.entity.name ?? ""] !== id.entity {
                failures.append("\(text) → \(id)")
            }
            if coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()) != id {
                failures.append("\(text) → \(id) does not round-trip")
            }
            context.performAndWait {
                guard let object = try? context.existingObject(with: id) else { return }
                existing += 1
                // Only a stored object comes back, as the entity it was saved as.
                if let storedID = stored.keys.first(where: { $0 == id }), storedID.entity === object.entity,
                   object.string("title") ?? "" == stored[storedID] {
                    return
                }
                failures.append("\(text) → \(object.entity.name ?? "") \(object.objectID) titled \(object.string("title") ?? "nil")")
            }
            context.performAndWait { context.reset() }
        }
        // The valid URIs themselves resolve to the objects.
        for (id, title) in stored {
            let parsed = coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation())
            #expect(parsed == id)
            if let parsed {
                #expect(try context.performAndWait { try context.existingObject(with: parsed).string("title") ?? "" } == title)
            }
        }
        print("URI fuzzing: seed \(seed), \(cases) cases: \(notURLs) not URLs, \(rejected) rejected, \(resolved) resolved to IDs, \(existing) to stored objects")
        #expect(failures.isEmpty, "seed \(seed): \(failures.joined(separator: "\n"))")
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func aURINamingAnotherEntityOfTheSameTableNamesNoObject(storeType: String) throws {
        let url = storeType == NSSQLiteStoreType ? directory.file("Siblings.sqlite") : nil
        let container = try makeContainer(model: TestModels.library(), storeURL: url, type: storeType)
        let context = container.newBackgroundContext()
        let bookID: NSManagedObjectID = try context.performAndWait {
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
            book.setValue("Dune", forKey: "title")
            try context.save()
            return book.objectID
        }
        let coordinator = container.persistentStoreCoordinator
        let reader = container.newBackgroundContext()
        for entity in ["Film", "Item"] {
            let forged = bookID.uriRepresentation().absoluteString.replacingOccurrences(of: "/Book/", with: "/\(entity)/")
            let forgedURL = try #require(URL(string: forged))
            let id = try #require(coordinator.managedObjectID(forURIRepresentation: forgedURL))
            reader.performAndWait {
                _ = #expect(throws: NSError.self, "\(forged) names no \(entity)") { try reader.existingObject(with: id) }
            }
        }
        let book = try reader.performAndWait { try reader.existingObject(with: bookID) }
        #expect(book.entity.name == "Book")
    }

    // MARK: Values

    static func awkwardStrings() -> [(String, String)] {
        let invalidUTF8 = Data([0x61, 0xFF, 0xFE, 0xC0, 0x80, 0xED, 0xA0, 0x80, 0xF4, 0x90, 0x80, 0x80, 0x62])
        var random = SplitMix64(seed: 42)
        let scalars: [Unicode.Scalar] = ["a", "\u{0}", "'", "\"", "%", "\u{301}", "é", "🙂", "\u{FFFD}", "\n", "\u{202E}", "€"]
        let tenMegabytes = String(String.UnicodeScalarView((0..<(10 << 20) / 2).map { _ in scalars.randomElement(using: &random)! }))
        return [
            ("quotes", "O'Brien said \"hi\" and `bye`; '' \"\""),
            ("percent", "100% of %@ %d %s %n %% %"),
            ("SQL", "'); DROP TABLE ZPERSON; --"),
            ("NUL", "before\u{0}after\u{0}"),
            ("only NUL", "\u{0}"),
            ("invalid UTF-8 from Data", String(decoding: invalidUTF8, as: UTF8.self)),
            ("unnormalized", "e\u{301} vs \u{E9}, A\u{30A} vs \u{C5}"),
            ("controls and marks", "\r\n\t\u{7F}\u{FEFF}\u{202E}\u{200D}🙂‍🙃"),
            ("empty", ""),
            ("10 MB", tenMegabytes),
        ]
    }

    /// Strings come back with exactly their bytes (Swift's `==` would accept a normalized form).
    @Test func awkwardStringsRoundTripExactly() throws {
        let url = directory.file("Strings.sqlite")
        let samples = Self.awkwardStrings()
        #expect(samples.last!.1.utf8.count >= 10_000_000)
        do {
            let context = try makeContainer(model: TestModels.allTypes(), storeURL: url).newBackgroundContext()
            try context.performAndWait {
                for (label, text) in samples {
                    let sample = NSEntityDescription.insertNewObject(forEntityName: "Sample", into: context)
                    sample.setValue(text, forKey: "text")
                    sample.setValue(Data(label.utf8), forKey: "photo")
                }
                try context.save()
            }
        }
        let context = try makeContainer(model: TestModels.allTypes(), storeURL: url).newBackgroundContext()
        let stored: [String: String] = try context.performAndWait {
            var byLabel: [String: String] = [:]
            for sample in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Sample")) {
                byLabel[String(decoding: sample.value(forKey: "photo") as? Data ?? Data(), as: UTF8.self)] = sample.string("text")
            }
            return byLabel
        }
        for (label, text) in samples {
            let back = try #require(stored[label], "\(label) is missing")
            #expect(Array(back.utf8) == Array(text.utf8), "\(label): \(back.utf8.count) bytes back for \(text.utf8.count)")
        }
    }

    /// Bytes that are not UTF-8 at all, stored as binary data, come back exactly.
    @Test func invalidUTF8BytesRoundTripAsBinaryData() throws {
        let url = directory.file("Bytes.sqlite")
        let blobs: [Data] = [
            Data([0xFF, 0xFE, 0x00, 0xC0, 0x80, 0xED, 0xA0, 0x80, 0x00]),
            Data([0x00]),
            Data((0..<256).map { UInt8($0) }),
            Data(repeating: 0xFF, count: 3 << 20),
        ]
        do {
            let context = try makeContainer(model: TestModels.allTypes(), storeURL: url).newBackgroundContext()
            try context.performAndWait {
                for (index, blob) in blobs.enumerated() {
                    let sample = NSEntityDescription.insertNewObject(forEntityName: "Sample", into: context)
                    sample.setValue(blob, forKey: "photo")
                    sample.setValue(Int64(index), forKey: "large")
                }
                try context.save()
            }
        }
        let context = try makeContainer(model: TestModels.allTypes(), storeURL: url).newBackgroundContext()
        try context.performAndWait {
            let samples = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Sample"))
            #expect(samples.count == blobs.count)
            for sample in samples {
                #expect(sample.value(forKey: "photo") as? Data == blobs[Int(sample.int64("large"))])
            }
        }
    }
}
