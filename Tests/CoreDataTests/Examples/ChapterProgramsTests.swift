import CoreData
import Foundation
import ProgramTestSupport
import Testing

/// The chapter programs run as a person would run them: commands in, transcript out.
@Suite struct ChapterProgramsTests {
    let directory = TemporaryDirectory()

    @Test func hitListAddsListsAndRemembersNamesAcrossLaunches() throws {
        let store = ["--store", directory.file("HitList.sqlite").path]
        let first = try ExampleProgram(name: "hitlist").run(["add Ada Lovelace", "add", "remove Ada", "add Grace Hopper", "list", "quit"], arguments: store)
        #expect(first.status == 0)
        #expect(first.output == """
        (no names yet)
        hitlist> add Ada Lovelace
        added Ada Lovelace
        hitlist> add
        error: a name is needed: add <name>
        hitlist> remove Ada
        error: unknown command 'remove'; try add, list, quit
        hitlist> add Grace Hopper
        added Grace Hopper
        hitlist> list
        1. Ada Lovelace
        2. Grace Hopper
        hitlist> quit

        """)
        let second = try ExampleProgram(name: "hitlist").run([], arguments: store)
        #expect(second.output == "1. Ada Lovelace\n2. Grace Hopper\n")
    }

    @Test func dogWalkAddsAndDeletesWalksInOrder() throws {
        let store = ["--store", directory.file("DogWalk.sqlite").path]
        let run = try ExampleProgram(name: "dogwalk").run([
            "walk 2024-01-02T08:00:00Z", "walk 2024-01-03T08:00:00Z", "delete 1", "delete 9", "walk yesterday", "dog Rex", "dogs",
        ], arguments: store)
        #expect(run.output == """
        Fido: 0 walks
        dogwalk> walk 2024-01-02T08:00:00Z
        Fido: 1 walk
          1. 2024-01-02T08:00:00Z
        dogwalk> walk 2024-01-03T08:00:00Z
        Fido: 2 walks
          1. 2024-01-02T08:00:00Z
          2. 2024-01-03T08:00:00Z
        dogwalk> delete 1
        Fido: 1 walk
          1. 2024-01-03T08:00:00Z
        dogwalk> delete 9
        error: no walk at row '9'; rows are 1...1
        dogwalk> walk yesterday
        error: not an ISO-8601 date: yesterday
        dogwalk> dog Rex
        Rex: 0 walks
        dogwalk> dogs
        Fido (1 walks)
        Rex (0 walks)

        """)
        let relaunch = try ExampleProgram(name: "dogwalk").run(["list"], arguments: store)
        #expect(relaunch.output.hasPrefix("Fido: 1 walk\n  1. 2024-01-03T08:00:00Z\n"))
    }

    /// The model's first version had no `distance`; a store written with it opens in the
    /// program, which uses the second version, with its walks, and takes distances after.
    @Test func dogWalkOpensAStoreOfItsFirstModelVersion() throws {
        let url = directory.file("DogWalkV1.sqlite")
        let bundle = ModelFiles.examples.appendingPathComponent("DogWalk/Model/DogWalk.xcdatamodeld")
        let version1 = try NSManagedObjectModel.load(contentsOf: bundle.appendingPathComponent("DogWalk.xcdatamodel"))
        #expect(version1.entitiesByName["Walk"]?.attributesByName["distance"] == nil)
        do {
            let context = try makeContainer(model: version1, storeURL: url).viewContext
            let dog = NSEntityDescription.insertNewObject(forEntityName: "Dog", into: context)
            dog.setValue("Fido", forKey: "name")
            let walk = NSEntityDescription.insertNewObject(forEntityName: "Walk", into: context)
            walk.setValue(Date(timeIntervalSince1970: 1_704_182_400), forKey: "date")
            dog.mutableOrderedSetValue(forKey: "walks").add(walk)
            try context.save()
        }
        let run = try ExampleProgram(name: "dogwalk").run(["walk 2024-01-03T08:00:00Z 4.5"], arguments: ["--store", url.path])
        #expect(run.output.hasPrefix("Fido: 1 walk\n  1. 2024-01-02T08:00:00Z\ndogwalk> walk 2024-01-03T08:00:00Z 4.5\nFido: 2 walks\n  1. 2024-01-02T08:00:00Z\n  2. 2024-01-03T08:00:00Z (4.5 km)\n"))
    }

    @Test func bowTiesRejectsARatingOfSixAndKeepsTheOldOne() throws {
        let store = ["--store", directory.file("BowTies.sqlite").path]
        let run = try ExampleProgram(name: "bowties").run(["keys", "show B", "rate 6", "rate five", "rate 2.5", "show R", "show ZZ"], arguments: store)
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("bowties> rate 6"))
        #expect(lines.contains("error: rating is too large."))
        #expect(lines.contains("error: a rating is a number: rate <0-5>"))
        #expect(lines.contains("error: no bow tie has the search key 'ZZ'"))
        let afterRating = try #require(lines.firstIndex(of: "bowties> rate 2.5"))
        #expect(lines[afterRating + 2].contains("rating 2.5/5"))
        let relaunch = try ExampleProgram(name: "bowties").run(["show B"], arguments: store)
        #expect(relaunch.output.contains("rating 2.5/5"))
    }

    @Test func aFileThatIsNotAStoreIsNamedAndLeftAlone() throws {
        let url = directory.file("NotAStore.sqlite")
        let bytes = Data("this is a shopping list, not a database".utf8)
        try bytes.write(to: url)
        let run = try ExampleProgram(name: "hitlist").run(["list"], arguments: ["--store", url.path])
        #expect(run.status == 1)
        #expect(run.output.contains("cannot open the store \(url.path)"))
        #expect(try Data(contentsOf: url) == bytes)
    }
}

extension ChapterProgramsTests {
    @Test func bubbleTeaCountsSumsFiltersAndMarksFavouritesInABatch() throws {
        let store = ["--store", directory.file("BubbleTea.sqlite").path]
        let run = try ExampleProgram(name: "bubbletea").run([
            "counts", "deals", "filter walking", "sort distance", "list", "filter bogus", "async", "favorite-all", "favorites",
        ], arguments: store)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(run.status == 0)
        for expected in [
            "$: 27 bubble tea places (count result type)",
            "$$: 2 bubble tea places (count(for:))",
            "$$$: 1 bubble tea places (count: expression)",
            "12 total deals",
            "filter: walking, 3 venues",
            "3 venues, filter walking, sorted by distance",
            "  Mango Cloud Tea | $ | 58 m | 0 deals | 31 tips",
            "error: unknown filter 'bogus'; try cheap, deals, expensive, moderate, tips, walking, none",
            "30 venues by asynchronous fetch",
            "Records updated 30",
            "30 favourite venues",
        ] {
            #expect(lines.contains(expected), "missing line: \(expected)")
        }
        let walking = try #require(lines.firstIndex(of: "3 venues, filter walking, sorted by distance"))
        #expect(lines[walking + 1...walking + 3].map { $0.split(separator: "|")[2] } == [" 58 m ", " 121 m ", " 338 m "])
    }
}
