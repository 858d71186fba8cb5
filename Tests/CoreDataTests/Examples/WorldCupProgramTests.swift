import Foundation
import ProgramTestSupport
import Testing

/// The main demo as a process: its printed callbacks and the table redrawn from them alone.
@Suite struct WorldCupProgramTests {
    let directory = TemporaryDirectory()

    func run(_ commands: [String]) throws -> [String] {
        let result = try ExampleProgram(name: "worldcup").run(commands, arguments: ["--store", directory.file("WorldCup.sqlite").path])
        #expect(result.status == 0)
        return result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    func block(after command: String, in lines: [String]) throws -> [String] {
        try ExampleProgram(name: "worldcup").block(after: command, in: lines)
    }

    @Test func tappingATeamMovesItUpItsZone() throws {
        let lines = try run(["tap Brazil", "tap Brazil"])
        let first = try block(after: "tap Brazil", in: lines)
        #expect(Array(first.prefix(4)) == [
            "Brazil wins! (1)",
            "controllerWillChangeContent",
            "  move [4, 1] -> [4, 0]: Brazil (1 wins)",
            "controllerDidChangeContent",
        ])
        let southAmerica = try #require(first.firstIndex(of: "South America (6)"))
        #expect(first[southAmerica + 1].hasPrefix("  Brazil "))
        #expect(first[southAmerica + 1].hasSuffix("1 win"))
        let second = try block(after: "tap Brazil", in: Array(lines[(lines.firstIndex(of: "worldcup> tap Brazil")! + 1)...]))
        #expect(second.contains("  update [4, 0]: Brazil (2 wins)"), "a team already first in its zone is updated, not moved")
    }

    @Test func aNewZoneBecomesASectionAndLeavesWithItsLastTeam() throws {
        let lines = try run(["add Wenderland Internets", "delete Wenderland"])
        let added = try block(after: "add Wenderland Internets", in: lines)
        #expect(Array(added.prefix(5)) == [
            "added Wenderland in Internets",
            "controllerWillChangeContent",
            "  section insert at 3: Internets",
            "  insert [3, 0]: Wenderland (0 wins)",
            "controllerDidChangeContent",
        ])
        #expect(added.contains("Internets (1)"))
        let deleted = try block(after: "delete Wenderland", in: lines)
        #expect(Array(deleted.prefix(5)) == [
            "deleted Wenderland",
            "controllerWillChangeContent",
            "  section delete at 3: Internets",
            "  delete [3, 0]: Wenderland (0 wins)",
            "controllerDidChangeContent",
        ])
        #expect(!deleted.contains("Internets (1)"))
    }

    @Test func aBackgroundImportReachesTheTableThroughTheMerge() throws {
        let lines = try run(["import 2"])
        let imported = try block(after: "import 2", in: lines)
        #expect(Array(imported.prefix(6)) == [
            "imported 2 teams on a background context",
            "merged the background context's save",
            "controllerWillChangeContent",
            "  insert [0, 2]: Egypt (0 wins)",
            "  insert [0, 5]: Morocco (0 wins)",
            "controllerDidChangeContent",
        ])
        #expect(imported.contains("Africa (7)"))
    }

    @Test func aTapInAnotherProcessRedrawsTheTable() throws {
        let watching = try ExampleProgram(name: "worldcup").start(arguments: ["--store", directory.file("WorldCup.sqlite").path])
        watching.send("list")
        #expect(watching.waitForOutput("South America (6)", after: "worldcup> list"), "\(watching.output)")
        // A second worldcup on the same file taps; the first hears of it and merges the history.
        let tapping = try run(["tap Brazil"])
        #expect(tapping.contains("Brazil wins! (1)"))
        let merged = "merged 1 save from another process"
        #expect(watching.waitForOutput("controllerDidChangeContent", after: merged), "\(watching.output)")
        watching.send("list")
        #expect(watching.waitForOutput("South America (6)", after: "worldcup> list"))
        #expect(try watching.finish() == 0)
        let lines = watching.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let redraw = try #require(lines.firstIndex(of: merged))
        #expect(Array(lines[(redraw + 1)...].prefix(3)) == [
            "controllerWillChangeContent",
            "  move [4, 1] -> [4, 0]: Brazil (1 wins)",
            "controllerDidChangeContent",
        ])
        let southAmerica = try #require(lines[redraw...].firstIndex(of: "South America (6)"))
        #expect(lines[southAmerica + 1].hasPrefix("  Brazil ") && lines[southAmerica + 1].hasSuffix("1 win"))
    }

    @Test func mistakesGetOneLineAndNothingChanges() throws {
        let lines = try run(["tap Narnia", "add OnlyAName", "frobnicate", "list"])
        #expect(try block(after: "tap Narnia", in: lines) == ["error: no team named 'Narnia'"])
        #expect(try block(after: "add OnlyAName", in: lines) == ["error: add needs a team and a zone: add <team> <zone>"])
        #expect(try block(after: "frobnicate", in: lines) == ["error: unknown command 'frobnicate'; try tap, add, delete, import, list, quit"])
        let table = try block(after: "list", in: lines)
        #expect(table.filter { $0.hasSuffix(")") && !$0.hasPrefix(" ") } == ["Africa (5)", "Asia (4)", "Europe (13)", "North America (4)", "South America (6)"])
    }

    @Test func theTableSurvivesARelaunch() throws {
        _ = try run(["tap Germany", "add Wenderland Internets"])
        let relaunched = try run([])
        #expect(relaunched.contains("Internets (1)"))
        let europe = try #require(relaunched.firstIndex(of: "Europe (13)"))
        #expect(relaunched[europe + 1].hasPrefix("  Germany "))
    }
}
