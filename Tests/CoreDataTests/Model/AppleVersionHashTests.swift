@testable import CoreData
import Foundation
import Testing

/// The version hashes are Apple's (the recipe in `shared/APPLE-VERSION-HASH.md`, summed up in
/// the README): equal, byte for byte, to what Apple's framework wrote into a store file and an
/// Xcode metadata block, and, for the parts no Apple-written file exercises, to the recipe
/// written out again here, independently of `VersionHash`.
@Suite struct AppleVersionHashTests {
    // MARK: The digests

    static func hex(_ bytes: some Sequence<UInt8>) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha256MatchesTheStandardsVectors() {
        #expect(Self.hex(SHA2.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA2.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(SHA2.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.hex(SHA2.sha256([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func sha512MatchesTheStandardsVectors() {
        #expect(Self.hex(SHA2.sha512([])) == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")
        #expect(Self.hex(SHA2.sha512(Array("abc".utf8))) == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(Self.hex(SHA2.sha512(Array("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu".utf8)))
                == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
    }

    /// Every length around the padding boundaries (one and two blocks), against coreutils.
    @Test func digestsAgreeWithCoreutilsAtEveryPaddingBoundary() throws {
        var message: [UInt8] = []
        var generator = SplitMix64(seed: 32)
        for length in 0...260 {
            while message.count < length { message.append(UInt8(truncatingIfNeeded: generator.next())) }
            #expect(Self.hex(SHA2.sha256(message)) == (try Self.coreutils("sha256sum", message)), "SHA-256 of \(length) bytes")
            if [0, 1, 110, 111, 112, 113, 127, 128, 129, 239, 240, 255, 256].contains(length) {
                #expect(Self.hex(SHA2.sha512(message)) == (try Self.coreutils("sha512sum", message)), "SHA-512 of \(length) bytes")
            }
        }
    }

    static func coreutils(_ tool: String, _ input: [UInt8]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(tool) failed")
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }

    // MARK: Against files Apple wrote

    /// The fixture store Apple's framework wrote on iOS with `FeedbackModel.xcdatamodeld`.
    @Test func theFeedbackModelsHashesAreTheOnesApplesStoreRecords() throws {
        let fixtures = AppleStoreFileTests.fixtures
        let model = try #require(NSManagedObjectModel(contentsOf: fixtures.appendingPathComponent("FeedbackModel.xcdatamodeld")))
        let stored = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: fixtures.appendingPathComponent("FeedbackModel.sqlite"))
        let recorded = try #require(stored[NSStoreModelVersionHashesKey] as? [String: Data])
        #expect(model.entityVersionHashesByName == recorded)
        #expect(model.entityVersionHashesByName.mapValues { Self.hex($0) } == AppleStoreFileTests.appleHashes)
        for (name, entity) in model.entitiesByName { #expect(entity.versionHash == recorded[name]) }
        // The check a store's open makes first, before any other way of accepting a file.
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: stored))
    }

    /// An Xcode-written metadata block (framework version 1448: the XML store of Xcode's
    /// mapping-model editor): its checksum and digest, from its entity hashes.
    @Test func checksumAndDigestAreTheOnesXcodeWrote() throws {
        let hashes = try [
            "XDDevAttributeMapping": "0plcXXRN7XHKl5CcF+fwriFmUpON3ZtcI/AfK748aWc=",
            "XDDevEntityMapping": "qeN1Ym3TkWN1G6dU9RfX6Kd2ccEvcDVWHpd3LpLgboI=",
            "XDDevMappingModel": "EqtMzvRnVZWkXwBHu4VeVGy8UyoOe+bi67KC79kphlQ=",
            "XDDevPropertyMapping": "XN33V44TTGY4JETlMoOB5yyTKxB+u4slvDIinv0rtGA=",
            "XDDevRelationshipMapping": "akYY9LhehVA/mCb4ATLWuI9XGLcjpm14wWL1oEBtIcs=",
        ].mapValues { try #require(Data(base64Encoded: $0)) }
        #expect(VersionHash.checksum(hashes) == "bMpud663vz0bXQE24C6Rh4MvJ5jVnzsD2sI3njZkKbc=")
        #expect(VersionHash.digest(hashes) == "+Hmc2uYZK6og+Pvx5GUJ7oW75UG4V/ksQanTjfTKUnxyGWJRMtB5tIRgVwGsrd7lz/QR57++wbvWsr6nxwyS0A==")
    }

    // MARK: The recipe, written out again

    /// The recipe's encodings, one function per hash, with no code shared with `VersionHash`.
    enum Recipe {
        static func sha256(_ parts: [[UInt8]]) -> [UInt8] { SHA2.sha256(parts.flatMap { $0 }) }
        static func utf8(_ text: String?) -> [UInt8] { Array((text ?? "").utf8) }
        static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xff), UInt8((value >> 8) & 0xff)] }
        static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> ($0 * 8)) & 0xff) } }

        static func base(_ name: String, optional: Bool, transient: Bool = false, readOnly: Bool = false, modifier: String? = nil) -> [UInt8] {
            sha256([utf8(name), le16((optional ? 1 : 0) + (transient ? 2 : 0) + (readOnly ? 4 : 0)), utf8(modifier)])
        }

        static func attribute(_ base: [UInt8], type: Int, external: Bool = false, preserved: Bool = false, extra: [UInt8] = []) -> [UInt8] {
            sha256([base, le32(type), external ? [1] : [], preserved ? [1] : [], extra])
        }

        static func relationship(_ base: [UInt8], destination: String, inverse: String?, max: Int, min: Int, ordered: Bool = false) -> [UInt8] {
            sha256([base, utf8(destination), utf8(inverse), le32(max), le32(min), ordered ? le16(1) : []])
        }

        static func entity(_ name: String, abstract: Bool = false, parent: [UInt8]? = nil, properties: [[UInt8]], modifier: String? = nil, constraints: [String] = []) -> [UInt8] {
            sha256([utf8(name), [abstract ? 1 : 0], parent ?? []] + properties + [utf8(modifier)] + constraints.map(utf8))
        }
    }

    /// Every part no Apple-written file exercises: an abstract parent, inherited and
    /// read-only properties, both hash modifiers, external storage, preservation after
    /// deletion, an ordered to-many with both counts, a self-inverse relationship, transient
    /// and fetched properties left out, each other attribute type, and non-ASCII names.
    static func recipeModel() -> NSManagedObjectModel {
        let item = NSEntityDescription(name: "Item", properties: [
            NSAttributeDescription(name: "straße", type: .stringAttributeType),
            NSAttributeDescription(name: "cover", type: .binaryDataAttributeType),
        ])
        item.isAbstract = true
        (item.properties[1] as! NSAttributeDescription).allowsExternalBinaryDataStorage = true
        item.properties[0].versionHashModifier = "v2"
        let count = NSDerivedAttributeDescription(name: "shelfCount", type: .integer64AttributeType)
        count.derivationExpression = NSExpression(format: "shelves.@count")
        let note = NSAttributeDescription(name: "note", type: .stringAttributeType)
        note.isTransient = true
        let code = NSAttributeDescription(name: "code", type: .integer16AttributeType)
        code.isOptional = false
        code.preservesValueInHistoryOnDeletion = true
        let shelves = NSRelationshipDescription(name: "shelves", destination: "Shelf", toMany: true, inverse: "books")
        shelves.isOrdered = true
        shelves.minCount = 2
        shelves.maxCount = 5
        let twins = NSRelationshipDescription(name: "twins", destination: "Café", toMany: true, inverse: "twins")
        let otherTypes: [(NSAttributeType, String)] = [
            (.integer32AttributeType, "i32"), (.integer64AttributeType, "i64"), (.decimalAttributeType, "dec"),
            (.doubleAttributeType, "dbl"), (.floatAttributeType, "flt"), (.booleanAttributeType, "flag"),
            (.dateAttributeType, "when"), (.UUIDAttributeType, "uid"), (.URIAttributeType, "link"),
            (.transformableAttributeType, "blob"), (.objectIDAttributeType, "ref"),
        ]
        let book = NSEntityDescription(name: "Café", properties: [code, count, note, shelves, twins]
            + otherTypes.map { NSAttributeDescription(name: $0.1, type: $0.0) })
        book.versionHashModifier = "cafe-2"
        book.uniquenessConstraints = [["i64", "i32"], ["code"]]
        item.subentities = [book]
        let shelf = NSEntityDescription(name: "Shelf", properties: [
            NSRelationshipDescription(name: "books", destination: "Café", toMany: true, inverse: "shelves"),
        ])
        return NSManagedObjectModel(entities: [item, book, shelf])
    }

    @Test func everyPartOfTheRecipeNoAppleFileCoversFollowsTheRecipe() throws {
        let model = Self.recipeModel()
        let fetched = NSFetchedPropertyDescription()
        fetched.name = "aFetched"
        model.entitiesByName["Shelf"]!.properties.append(fetched)
        let coverHash = Recipe.attribute(Recipe.base("cover", optional: true), type: 1000, external: true)
        let strasseHash = Recipe.attribute(Recipe.base("straße", optional: true, modifier: "v2"), type: 700)
        // "cover" < "straße": the same in code order and in Foundation's compare:.
        let itemHash = Recipe.entity("Item", abstract: true, properties: [coverHash, strasseHash])
        let expectedProperties: [(String, [UInt8])] = [
            ("blob", Recipe.attribute(Recipe.base("blob", optional: true), type: 1800)),
            ("code", Recipe.attribute(Recipe.base("code", optional: false), type: 100, preserved: true)),
            ("cover", coverHash),
            ("dbl", Recipe.attribute(Recipe.base("dbl", optional: true), type: 500)),
            ("dec", Recipe.attribute(Recipe.base("dec", optional: true), type: 400)),
            ("flag", Recipe.attribute(Recipe.base("flag", optional: true), type: 800)),
            ("flt", Recipe.attribute(Recipe.base("flt", optional: true), type: 600)),
            ("i32", Recipe.attribute(Recipe.base("i32", optional: true), type: 200)),
            ("i64", Recipe.attribute(Recipe.base("i64", optional: true), type: 300)),
            ("link", Recipe.attribute(Recipe.base("link", optional: true), type: 1200)),
            ("ref", Recipe.attribute(Recipe.base("ref", optional: true), type: 2000)),
            ("shelfCount", Recipe.attribute(Recipe.base("shelfCount", optional: true, readOnly: true), type: 300, extra: Recipe.utf8("shelves.@count"))),
            ("shelves", Recipe.relationship(Recipe.base("shelves", optional: true), destination: "Shelf", inverse: "books", max: 5, min: 2, ordered: true)),
            ("straße", strasseHash),
            ("twins", Recipe.relationship(Recipe.base("twins", optional: true), destination: "Café", inverse: nil, max: 0, min: 0)),
            ("uid", Recipe.attribute(Recipe.base("uid", optional: true), type: 1100)),
            ("when", Recipe.attribute(Recipe.base("when", optional: true), type: 900)),
        ]
        let book = try #require(model.entitiesByName["Café"])
        for (name, expected) in expectedProperties {
            #expect(Self.hex(try #require(book.propertiesByName[name]).versionHash) == Self.hex(expected), "\(name)")
        }
        let bookHash = Recipe.entity("Café", parent: itemHash, properties: expectedProperties.map(\.1), modifier: "cafe-2", constraints: ["code", "i64.i32"])
        let shelfHash = Recipe.entity("Shelf", properties: [
            Recipe.relationship(Recipe.base("books", optional: true), destination: "Café", inverse: "shelves", max: 0, min: 0),
        ])
        let hashes = model.entityVersionHashesByName.mapValues { Self.hex($0) }
        #expect(hashes == ["Item": Self.hex(itemHash), "Café": Self.hex(bookHash), "Shelf": Self.hex(shelfHash)])
        // Entities in name order: "Café" < "Item" < "Shelf".
        #expect(model.versionChecksum == Data(SHA2.sha256(bookHash + itemHash + shelfHash)).base64EncodedString())
        let digest = SHA2.sha512(Recipe.utf8("Café") + bookHash + Recipe.utf8("Item") + itemHash + Recipe.utf8("Shelf") + shelfHash)
        #expect(VersionHash.digest(model.entityVersionHashesByName) == Data(digest).base64EncodedString())
    }

    // MARK: In the stores written here

    @Test func aNewStoreRecordsApplesModelKeys() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Books.sqlite")
        let model = VersionHashTests.model()
        _ = try makeContainer(model: model, storeURL: url)
        let stored = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(stored[NSStoreModelVersionHashesKey] as? [String: Data] == model.entityVersionHashesByName)
        #expect(stored["NSStoreModelVersionChecksumKey"] as? String == model.versionChecksum)
        #expect(stored["NSStoreModelVersionHashesDigest"] as? String == VersionHash.digest(model.entityVersionHashesByName))
        #expect(stored["NSStoreModelVersionHashesVersion"] as? Int == 3)
    }
}
