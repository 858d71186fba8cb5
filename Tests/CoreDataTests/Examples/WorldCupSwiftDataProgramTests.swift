import Foundation
import ProgramTestSupport
import Testing

/// World Cup written with SwiftData, as a process: the table a live `ModelQuery` keeps, and
/// what its difference reports after each command.
@Suite struct WorldCupSwiftDataProgramTests {
    let directory = TemporaryDirectory()
    let program = ExampleProgram(name: "worldcup-swiftdata")

    func run(_ commands: [String]) throws -> [String] {
        let result = try program.run(commands, arguments: ["--store", directory.file("WorldCup.store").path])
        #expect(result.status == 0, "\(result.output)")
        return result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The South America section of a printed table.
    func southAmerica(in block: [String]) throws -> [String] {
        let start = try #require(block.firstIndex(of: "South America (6)"))
        return Array(block[start...].prefix(7))
    }

    @Test func theFirstLaunchShowsTheSeedTableByZone() throws {
        let lines = try run([])
        #expect(lines.filter { !$0.hasPrefix(" ") && !$0.isEmpty } == ["Africa (5)", "Asia (4)", "Europe (13)", "North America (4)", "South America (6)"])
        #expect(Array(lines.prefix(3)) == ["Africa (5)", "  Algeria                      0 wins", "  Cameroon                     0 wins"])
        #expect(lines.count == 38)
    }

    @Test func tappingATeamMovesItUpItsZone() throws {
        let lines = try run(["tap Brazil", "tap brazil"])
        let first = try program.block(after: "tap Brazil", in: lines)
        #expect(Array(first.prefix(2)) == ["Brazil wins! (1)", "  move 27 -> 26: Brazil (1 wins)"])
        #expect(try southAmerica(in: first) == [
            "South America (6)",
            "  Brazil                       1 win",
            "  Argentina                    0 wins",
            "  Chile                        0 wins",
            "  Colombia                     0 wins",
            "  Ecuador                      0 wins",
            "  Uruguay                      0 wins",
        ])
        let second = try program.block(after: "tap brazil", in: lines)
        #expect(Array(second.prefix(2)) == ["Brazil wins! (2)", "  no team moved"], "a team already first in its zone stays")
        #expect(try southAmerica(in: second)[1] == "  Brazil                       2 wins")
    }

    @Test func aNewZoneBecomesASectionAndLeavesWithItsLastTeam() throws {
        let lines = try run(["add Wenderland Internets", "delete Wenderland"])
        let added = try program.block(after: "add Wenderland Internets", in: lines)
        #expect(Array(added.prefix(3)) == ["added Wenderland in Internets", "  section added: Internets", "  insert 22: Wenderland (0 wins)"])
        let internets = try #require(added.firstIndex(of: "Internets (1)"))
        #expect(added[internets - 1] == "  Switzerland                  0 wins")
        #expect(added[internets + 1] == "  Wenderland                   0 wins")
        let deleted = try program.block(after: "delete Wenderland", in: lines)
        #expect(Array(deleted.prefix(3)) == ["deleted Wenderland", "  section removed: Internets", "  remove 22: Wenderland (0 wins)"])
        #expect(!deleted.contains("Internets (1)"))
    }

    @Test func mistakesGetOneLineAndNothingChanges() throws {
        let lines = try run(["tap Narnia", "tap", "add OnlyAName", "add Brazil Europe", "frobnicate", "quit"])
        #expect(try program.block(after: "tap Narnia", in: lines) == ["error: no team named 'Narnia'"])
        #expect(try program.block(after: "tap", in: lines) == ["error: which team? tap <team>"])
        #expect(try program.block(after: "add OnlyAName", in: lines) == ["error: add needs a team and a zone: add <team> <zone>"])
        #expect(try program.block(after: "add Brazil Europe", in: lines) == ["error: there is already a team named 'Brazil'"])
        #expect(try program.block(after: "frobnicate", in: lines) == ["error: unknown command 'frobnicate'; try tap, add, delete, list, quit"])
    }

    @Test func theTableSurvivesARelaunch() throws {
        _ = try run(["tap Germany", "add \"Costa Azul\" Internets"])
        let relaunched = try run([])
        #expect(relaunched.contains("Internets (1)"))
        #expect(relaunched.contains("  Costa Azul                   0 wins"))
        let europe = try #require(relaunched.firstIndex(of: "Europe (13)"))
        #expect(relaunched[europe + 1] == "  Germany                      1 win")
    }
}
