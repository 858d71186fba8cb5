import Foundation
import Testing

/// Apple's debugging launch arguments as environment variables, checked in a child process
/// (`CoreDataStress`, Sources/CoreDataStress/DebugSwitches.swift) so that a stop is observable
/// and the switches are read at start as a user's program reads them.
@Suite struct DebugSwitchTests {
    struct Run {
        let status: Int32
        let signalled: Bool
        let output: String
        let errors: String
    }

    /// Runs `CoreDataStress <command> --store …` with `environment` and waits at most a minute.
    func run(_ command: String, environment: [String: String]) throws -> Run {
        let directory = TemporaryDirectory()
        let child = try StressProcess([command, "--store", directory.file("Debug.sqlite").path],
                                      errorLog: directory.file("stderr.txt"), outputLog: directory.file("stdout.txt"),
                                      environment: environment)
        let deadline = Date().addingTimeInterval(60)
        while child.process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if child.process.isRunning {
            child.kill()
            Issue.record("CoreDataStress \(command) did not finish within a minute")
        }
        child.process.waitUntilExit()
        let output = (try? String(contentsOf: directory.file("stdout.txt"), encoding: .utf8)) ?? ""
        return Run(status: child.process.terminationStatus, signalled: child.process.terminationReason == .uncaughtSignal,
                   output: output, errors: child.standardErrorText)
    }

    @Test func concurrencyDebugStopsAProgramThatTouchesAnObjectOffItsQueue() throws {
        let stopped = try run("touch-off-queue", environment: ["CORE_DATA_CONCURRENCY_DEBUG": "1"])
        #expect(stopped.signalled, "exit \(stopped.status): \(stopped.errors)")
        #expect(!stopped.output.contains("read off-queue"))
        #expect(stopped.errors.contains("CoreData concurrency violation"))
        #expect(stopped.errors.contains("Counter"), "names the object")
        #expect(stopped.errors.contains("'touch-off-queue'"), "names the context")
        #expect(stopped.errors.contains("Thread") || stopped.errors.contains("main thread"), "names the thread")
    }

    @Test func withoutConcurrencyDebugTheSameProgramRunsNormally() throws {
        let normal = try run("touch-off-queue", environment: ["CORE_DATA_CONCURRENCY_DEBUG": "0"])
        #expect(!normal.signalled && normal.status == 0, "\(normal.errors)")
        #expect(normal.output.contains("read off-queue off the queue"))
        #expect(!normal.errors.contains("concurrency violation"))
    }

    @Test func sqlDebugThreeLogsAFetchWithItsBoundValues() throws {
        let logged = try run("fetch-with-bound-values", environment: ["CORE_DATA_SQL_DEBUG": "3"])
        #expect(logged.status == 0, "\(logged.errors)")
        #expect(logged.output.contains("matched 1"))
        let lines = logged.errors.split(separator: "\n").map(String.init)
        let select = try #require(lines.firstIndex { $0.contains("sql: SELECT") && $0.contains("FROM ZCOUNTER") && $0.contains("ZNAME IS ?1") },
                                  "no fetch statement in: \(logged.errors)")
        let following = lines[(select + 1)...].prefix(4)
        #expect(following.contains { $0.contains("bind[0]: 'beta'") }, "\(following)")
        #expect(following.contains { $0.contains("bind[1]: 5") }, "\(following)")
        #expect(following.contains { $0.contains("time: ") && $0.contains("rows: 1") }, "\(following)")
        #expect(lines.contains { $0.contains("sql: INSERT INTO ZCOUNTER") }, "the save's statements are logged too")
        #expect(lines.allSatisfy { !$0.contains("query plan") }, "the plan is level 4's")
    }

    @Test func sqlDebugLevelsAddTimeRowsValuesAndThePlanInTurn() throws {
        let one = try run("fetch-with-bound-values", environment: ["CORE_DATA_SQL_DEBUG": "1"])
        #expect(one.errors.contains("sql: SELECT") && one.errors.contains("time: "))
        #expect(!one.errors.contains("rows: ") && !one.errors.contains("bind["))
        let two = try run("fetch-with-bound-values", environment: ["CORE_DATA_SQL_DEBUG": "2"])
        #expect(two.errors.contains("rows: 1") && !two.errors.contains("bind["))
        let four = try run("fetch-with-bound-values", environment: ["CORE_DATA_SQL_DEBUG": "4"])
        #expect(four.errors.contains("bind[0]: 'beta'"))
        #expect(four.errors.contains("query plan: SCAN t0") || four.errors.contains("query plan: SEARCH t0"), "\(four.errors)")
    }

    @Test func withoutSQLDebugNothingIsLogged() throws {
        let quiet = try run("fetch-with-bound-values", environment: ["CORE_DATA_SQL_DEBUG": ""])
        #expect(quiet.status == 0)
        #expect(quiet.output == "matched 1\n")
        #expect(quiet.errors.isEmpty, "\(quiet.errors)")
    }

    @Test func editingAModelACoordinatorUsesStopsTheProgramNamingTheModelAndProperty() throws {
        let stopped = try run("edit-model-in-use", environment: [:])
        #expect(stopped.signalled, "exit \(stopped.status): \(stopped.errors)")
        #expect(!stopped.output.contains("edited a model in use"))
        #expect(stopped.errors.contains("can't modify an immutable model"))
        #expect(stopped.errors.contains("isOptional of property 'value' of entity 'Counter'"), "\(stopped.errors)")
        #expect(stopped.errors.contains("entities: Counter, Item"), "names the model by its entities")
    }
}
