import CoreData
import Foundation
import Testing

/// A value an undo manager edits in the tests: each edit registers the edit back.
private final class Counter {
    var value = 0
    let undoManager: UndoManager

    init(_ undoManager: UndoManager) { self.undoManager = undoManager }

    func set(_ newValue: Int) {
        let oldValue = value
        undoManager.registerUndo(withTarget: self) { $0.set(oldValue) }
        value = newValue
    }
}

/// Collects the names of the undo manager notifications posted by one manager.
private final class NotificationLog: @unchecked Sendable {
    private(set) var names: [Notification.Name] = []
    private(set) var discardableFlags: [Bool] = []
    private var tokens: [NSObjectProtocol] = []

    init(_ undoManager: UndoManager) {
        let all: [Notification.Name] = [.NSUndoManagerCheckpoint, .NSUndoManagerWillUndoChange, .NSUndoManagerDidUndoChange,
                                        .NSUndoManagerWillRedoChange, .NSUndoManagerDidRedoChange, .NSUndoManagerDidOpenUndoGroup,
                                        .NSUndoManagerWillCloseUndoGroup, .NSUndoManagerDidCloseUndoGroup]
        tokens = all.map { name in
            NotificationCenter.default.addObserver(forName: name, object: undoManager, queue: nil) { [unowned self] notification in
                names.append(notification.name)
                if let flag = notification.userInfo?[UndoManager.groupIsDiscardableUserInfoKey] as? Bool { discardableFlags.append(flag) }
            }
        }
    }

    deinit { tokens.forEach(NotificationCenter.default.removeObserver) }
}

@Suite struct UndoManagerTests {
    @Test func undoRevertsTheLastGroupAndRedoReappliesIt() {
        let undoManager = UndoManager()
        let counter = Counter(undoManager)
        counter.set(1)
        undoManager.endUndoGrouping()
        counter.set(2)
        #expect(undoManager.canUndo)
        #expect(!undoManager.canRedo)

        undoManager.undo()
        #expect(counter.value == 1)
        #expect(undoManager.canRedo)
        undoManager.undo()
        #expect(counter.value == 0)
        #expect(!undoManager.canUndo)

        undoManager.redo()
        #expect(counter.value == 1)
        undoManager.redo()
        #expect(counter.value == 2)
        #expect(!undoManager.canRedo)
        #expect(undoManager.canUndo)
    }

    @Test func firstRegistrationOpensAnAutomaticGroupThatUndoCloses() {
        let undoManager = UndoManager()
        let counter = Counter(undoManager)
        #expect(undoManager.groupsByEvent)
        counter.set(1)
        counter.set(2)
        #expect(undoManager.groupingLevel == 1)
        undoManager.undo()
        #expect(undoManager.groupingLevel == 0)
        #expect(counter.value == 0)
    }

    @Test func automaticGroupClosesAtTheEndOfTheRunLoopTurn() {
        let undoManager = UndoManager()
        let counter = Counter(undoManager)
        counter.set(1)
        #expect(undoManager.groupingLevel == 1)
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))
        #expect(undoManager.groupingLevel == 0)
        counter.set(2)
        undoManager.undo()
        #expect(counter.value == 1)
    }

    @Test func nestedGroupsUndoTogetherOrOneByOne() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        let counter = Counter(undoManager)
        undoManager.beginUndoGrouping()
        counter.set(1)
        undoManager.beginUndoGrouping()
        counter.set(2)
        undoManager.endUndoGrouping()
        #expect(undoManager.groupingLevel == 1)

        // The closed nested group is undone alone, inside the open one.
        undoManager.undoNestedGroup()
        #expect(counter.value == 1)
        counter.set(3)
        undoManager.endUndoGrouping()
        undoManager.undo()
        #expect(counter.value == 0)
    }

    @Test func undoWithANestedGroupOpenChangesNothing() {
        let undoManager = UndoManager()
        let counter = Counter(undoManager)
        counter.set(1)
        undoManager.endUndoGrouping()
        undoManager.beginUndoGrouping()
        undoManager.beginUndoGrouping()
        counter.set(2)

        undoManager.undo()
        #expect(counter.value == 2)
        #expect(undoManager.groupingLevel == 2)
        undoManager.endUndoGrouping()
        undoManager.endUndoGrouping()
        undoManager.undo()
        #expect(counter.value == 1)
    }

    @Test func misusedGroupingIsReportedNotFatal() {
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        undoManager.endUndoGrouping()
        undoManager.enableUndoRegistration()
        let counter = Counter(undoManager)
        counter.set(1)
        #expect(!undoManager.canUndo)
        #expect(undoManager.groupingLevel == 0)
        #expect(undoManager.isUndoRegistrationEnabled)
    }

    @Test func newRegistrationClearsTheRedoStack() {
        let undoManager = UndoManager()
        let counter = Counter(undoManager)
        counter.set(1)
        undoManager.undo()
        #expect(undoManager.canRedo)
        counter.set(5)
        #expect(!undoManager.canRedo)
    }

    @Test func registrationWhileUndoingGoesToTheRedoStack() {
        let undoManager = UndoManager()
        let counter = Counter(undoManager)
        var states: [(undoing: Bool, redoing: Bool)] = []
        undoManager.registerUndo(withTarget: counter) { counter in
            states.append((undoManager.isUndoing, undoManager.isRedoing))
            counter.set(0)
        }
        counter.value = 1
        undoManager.undo()
        #expect(states.count == 1 && states[0].undoing && !states[0].redoing)
        #expect(undoManager.canRedo)
        #expect(!undoManager.canUndo)
        #expect(!undoManager.isUndoing)
    }

    @Test func levelsOfUndoDropsTheOldestGroups() {
        let undoManager = UndoManager()
        let counter = Counter(undoManager)
        for value in 1...5 {
            counter.set(value)
            undoManager.endUndoGrouping()
        }
        undoManager.levelsOfUndo = 2
        undoManager.undo()
        undoManager.undo()
        #expect(counter.value == 3)
        #expect(!undoManager.canUndo)
    }

    @Test func actionNamesGiveMenuTitles() {
        let undoManager = UndoManager()
        let counter = Counter(undoManager)
        #expect(undoManager.undoMenuItemTitle == "Undo")
        counter.set(1)
        undoManager.setActionName("Count")
        #expect(undoManager.undoActionName == "Count")
        #expect(undoManager.undoMenuItemTitle == "Undo Count")
        undoManager.undo()
        #expect(undoManager.undoActionName == "")
        #expect(undoManager.redoActionName == "Count")
        #expect(undoManager.redoMenuItemTitle == "Redo Count")
        #expect(undoManager.undoMenuTitle(forUndoActionName: "Typing") == "Undo Typing")
        #expect(undoManager.redoMenuTitle(forUndoActionName: "") == "Redo")
    }

    @Test func removeAllActionsWithTargetKeepsOtherTargets() {
        let undoManager = UndoManager()
        let first = Counter(undoManager), second = Counter(undoManager)
        first.set(1)
        second.set(1)
        undoManager.endUndoGrouping()
        first.set(2)
        undoManager.endUndoGrouping()

        undoManager.removeAllActions(withTarget: first)
        #expect(undoManager.canUndo)
        undoManager.undo()
        #expect(second.value == 0)
        #expect(first.value == 2)
        #expect(!undoManager.canUndo)

        undoManager.removeAllActions()
        #expect(!undoManager.canRedo)
    }

    @Test func disabledRegistrationRecordsNothingAndNests() {
        let undoManager = UndoManager()
        let counter = Counter(undoManager)
        undoManager.disableUndoRegistration()
        undoManager.disableUndoRegistration()
        counter.set(1)
        undoManager.enableUndoRegistration()
        counter.set(2)
        #expect(!undoManager.isUndoRegistrationEnabled)
        #expect(!undoManager.canUndo)
        undoManager.enableUndoRegistration()
        counter.set(3)
        #expect(undoManager.canUndo)
    }

    @Test func discardableFlagFollowsTheGroup() {
        let undoManager = UndoManager()
        let log = NotificationLog(undoManager)
        let counter = Counter(undoManager)
        counter.set(1)
        undoManager.setActionIsDiscardable(true)
        #expect(undoManager.undoActionIsDiscardable)
        undoManager.endUndoGrouping()
        #expect(log.discardableFlags == [true])
        undoManager.undo()
        #expect(undoManager.redoActionIsDiscardable)
    }

    @Test func notificationsArePostedInOrder() {
        let undoManager = UndoManager()
        let counter = Counter(undoManager)
        let log = NotificationLog(undoManager)
        counter.set(1)
        undoManager.undo()
        undoManager.redo()
        #expect(log.names == [
            .NSUndoManagerCheckpoint, .NSUndoManagerDidOpenUndoGroup,
            .NSUndoManagerCheckpoint, .NSUndoManagerCheckpoint, .NSUndoManagerWillCloseUndoGroup, .NSUndoManagerDidCloseUndoGroup,
            .NSUndoManagerCheckpoint, .NSUndoManagerWillUndoChange, .NSUndoManagerDidUndoChange,
            .NSUndoManagerCheckpoint, .NSUndoManagerWillRedoChange, .NSUndoManagerDidRedoChange,
        ])
    }

    @Test func targetIsNotRetained() {
        let undoManager = UndoManager()
        weak var released: Counter?
        do {
            let counter = Counter(undoManager)
            counter.set(1)
            released = counter
        }
        #expect(released == nil)
        undoManager.undo()
    }
}
