/// A recorder of undo operations, grouped, with a redo stack: Apple's `UndoManager`, which
/// Foundation on Linux does not provide.
///
/// Register closure-based operations with `registerUndo(withTarget:handler:)`; operations
/// registered while undoing go on the redo stack, and any other registration clears it.
///
/// For example:
/// ```swift
/// let undoManager = UndoManager()
/// undoManager.registerUndo(withTarget: document) { $0.title = oldTitle }
/// undoManager.setActionName("Rename")
/// undoManager.undo()
/// ```
///
/// With `groupsByEvent` on (the default), the first registration outside a group opens one
/// that closes at the end of the current run-loop turn, scheduled on `RunLoop.current` in
/// `runLoopModes`. A Linux program rarely runs a run loop, so that group also closes when
/// `undo()` is called, when a managed object context using this manager processes its pending
/// changes, or when you call `endUndoGrouping()`.
///
/// Confined like the context it usually serves: use it from one thread or queue at a time.
/// (Apple's is main-actor isolated; ours is not, so a private-queue context can use it.)
open class UndoManager: NSObject, @unchecked Sendable {
    /// Closed top-level groups, the most recent last.
    var undoStack: [UndoGroup] = []
    var redoStack: [UndoGroup] = []
    /// Groups begun and not yet ended, the outermost first. While undoing or redoing, the
    /// outermost is the group collecting the inverse operations.
    var openGroups: [UndoGroup] = []
    /// Whether the outermost open group was opened by a registration under `groupsByEvent`,
    /// so that the event boundary (not the caller) closes it.
    private var automaticGroupIsOpen = false
    /// Tells a scheduled end-of-turn close whether the group it was scheduled for is still open.
    private var automaticGroupSerial = 0
    private var registrationDisabledCount = 0

    /// True while `undo()` runs; registrations then go to the redo stack.
    public private(set) var isUndoing = false
    /// True while `redo()` runs; registrations then go to the undo stack.
    public private(set) var isRedoing = false

    /// Whether a registration outside any group opens one automatically, closed at the end of
    /// the run-loop turn (see the type's discussion for the Linux event boundary).
    open var groupsByEvent = true

    /// The run-loop modes in which the automatic group's end-of-turn close is scheduled.
    open var runLoopModes: [RunLoop.Mode] = [.default]

    /// The most top-level groups each stack keeps, 0 for no limit; older groups are dropped
    /// first, at once when the limit is lowered.
    open var levelsOfUndo = 0 {
        didSet {
            trim(&undoStack)
            trim(&redoStack)
        }
    }

    /// An empty manager that groups by event and keeps unlimited levels.
    public override init() {
        super.init()
    }

    // MARK: Registering

    /// Registers `handler` to undo a change to `target`, in the current group.
    ///
    /// The manager holds `target` weakly; the handler receives it when undone. Operations the
    /// handler registers go on the redo stack.
    ///
    /// Apple's selector-based `registerUndo(withTarget:selector:object:)` and invocation-based
    /// `prepare(withInvocationTarget:)` need the Objective-C runtime and have no counterpart.
    open func registerUndo<TargetType: AnyObject>(withTarget target: TargetType, handler: @escaping (TargetType) -> Void) {
        guard isUndoRegistrationEnabled else { return }
        if openGroups.isEmpty {
            guard groupsByEvent else { return UndoManagerMisuse.registrationOutsideGroup.report() }
            openAutomaticGroup()
        }
        if !isUndoing && !isRedoing { redoStack.removeAll() }
        openGroups[openGroups.count - 1].entries.append(.action(UndoAction(target: target, handler: handler)))
    }

    /// False between `disableUndoRegistration()` and its matching `enableUndoRegistration()`.
    public var isUndoRegistrationEnabled: Bool { registrationDisabledCount == 0 }

    /// Stops registration until a matching `enableUndoRegistration()`; calls nest.
    open func disableUndoRegistration() {
        registrationDisabledCount += 1
    }

    /// Ends one `disableUndoRegistration()`; an unmatched call changes nothing and is logged.
    open func enableUndoRegistration() {
        guard registrationDisabledCount > 0 else { return UndoManagerMisuse.enableWithoutDisable.report() }
        registrationDisabledCount -= 1
    }

    // MARK: Grouping

    /// The number of groups open (while undoing or redoing, counting the one collecting the
    /// inverse operations).
    open var groupingLevel: Int { openGroups.count }

    /// Opens a group, nested in the open one if any; posts `NSUndoManagerCheckpoint` first
    /// (except inside an undo or redo) and `NSUndoManagerDidOpenUndoGroup`.
    open func beginUndoGrouping() {
        if !isUndoing && !isRedoing { post(.NSUndoManagerCheckpoint) }
        openGroups.append(UndoGroup())
        post(.NSUndoManagerDidOpenUndoGroup)
    }

    /// Closes the innermost open group: into its parent, or onto the undo stack (the redo
    /// stack while undoing). An empty group is dropped.
    open func endUndoGrouping() {
        guard !openGroups.isEmpty else { return UndoManagerMisuse.endWithoutBegin.report() }
        // A checkpoint observer may register what it still holds into the closing group.
        post(.NSUndoManagerCheckpoint)
        post(.NSUndoManagerWillCloseUndoGroup)
        let group = openGroups.removeLast()
        if openGroups.isEmpty { automaticGroupIsOpen = false }
        if !group.isEmpty {
            if let parent = openGroups.last {
                parent.entries.append(.group(group))
            } else if isUndoing {
                push(group, onto: &redoStack)
            } else {
                push(group, onto: &undoStack)
            }
        }
        post(.NSUndoManagerDidCloseUndoGroup, userInfo: [Self.groupIsDiscardableUserInfoKey: group.isDiscardable])
    }

    private func openAutomaticGroup() {
        beginUndoGrouping()
        automaticGroupIsOpen = true
        automaticGroupSerial += 1
        let serial = automaticGroupSerial
        RunLoop.current.perform(inModes: runLoopModes) { [weak self] in
            guard let self, self.automaticGroupSerial == serial else { return }
            self.endAutomaticGrouping()
        }
    }

    /// Closes the group a registration opened under `groupsByEvent`, if it is the only one
    /// open: the end of an event. Groups the caller opened are left alone.
    func endAutomaticGrouping() {
        guard automaticGroupIsOpen, openGroups.count == 1, !isUndoing, !isRedoing else { return }
        endUndoGrouping()
    }

    private func push(_ group: UndoGroup, onto stack: inout [UndoGroup]) {
        stack.append(group)
        trim(&stack)
    }

    private func trim(_ stack: inout [UndoGroup]) {
        guard levelsOfUndo > 0, stack.count > levelsOfUndo else { return }
        stack.removeFirst(stack.count - levelsOfUndo)
    }

    // MARK: Undoing and redoing
    /// Whether there is something to undo: a closed group, or operations in the open
    /// top-level group (which `undo()` closes first).
    open var canUndo: Bool { groupToUndo != nil }

    /// Whether there is a group to redo.
    open var canRedo: Bool { !redoStack.isEmpty }

    /// The group `undo()` would undo.
    var groupToUndo: UndoGroup? {
        if !isUndoing, !isRedoing, let open = openGroups.first, !open.isEmpty { return open }
        return undoStack.last
    }

    /// Closes the open top-level group, if that is the only group open, then undoes the most
    /// recent group; the operations it registers become one group on the redo stack.
    ///
    /// With nested groups open Apple raises an exception; here nothing happens and the
    /// mistake is logged (see `UndoManagerMisuse`).
    open func undo() {
        guard !isUndoing, !isRedoing else { return UndoManagerMisuse.reentrantUndoOrRedo("undo()").report() }
        post(.NSUndoManagerCheckpoint)
        if groupingLevel == 1 { endUndoGrouping() }
        guard groupingLevel == 0 else { return UndoManagerMisuse.undoWithNestedGroupOpen(level: groupingLevel).report() }
        undoNestedGroup()
    }

    /// Undoes the last group: the last closed group nested in the open group when one is
    /// open, otherwise the top of the undo stack.
    open func undoNestedGroup() {
        guard !isUndoing, !isRedoing else { return UndoManagerMisuse.reentrantUndoOrRedo("undoNestedGroup()").report() }
        post(.NSUndoManagerCheckpoint)
        let group: UndoGroup
        if let open = openGroups.last {
            guard case .group(let nested)? = open.entries.last else { return UndoManagerMisuse.noClosedNestedGroup.report() }
            open.entries.removeLast()
            group = nested
        } else {
            guard let top = undoStack.popLast() else { return }
            group = top
        }
        post(.NSUndoManagerWillUndoChange)
        let inverse = performCollectingInverse(group, undoing: true)
        if !inverse.isEmpty { push(inverse, onto: &redoStack) }
        post(.NSUndoManagerDidUndoChange)
    }

    /// Redoes the top group of the redo stack; its operations register a group on the undo
    /// stack without clearing the rest of the redo stack.
    open func redo() {
        guard !isUndoing, !isRedoing else { return UndoManagerMisuse.reentrantUndoOrRedo("redo()").report() }
        post(.NSUndoManagerCheckpoint)
        if groupingLevel == 1 { endUndoGrouping() }
        guard groupingLevel == 0 else { return UndoManagerMisuse.redoWithNestedGroupOpen(level: groupingLevel).report() }
        guard let group = redoStack.popLast() else { return }
        post(.NSUndoManagerWillRedoChange)
        let inverse = performCollectingInverse(group, undoing: false)
        if !inverse.isEmpty { push(inverse, onto: &undoStack) }
        post(.NSUndoManagerDidRedoChange)
    }

    /// Runs `group` in reverse with a fresh group as the only open one, so that whatever the
    /// operations register lands there (and nowhere in groups the caller left open), and
    /// returns that group, named and marked like the one it reverses.
    private func performCollectingInverse(_ group: UndoGroup, undoing: Bool) -> UndoGroup {
        let inverse = UndoGroup(actionName: group.actionName, isDiscardable: group.isDiscardable)
        let outer = openGroups
        openGroups = [inverse]
        if undoing { isUndoing = true } else { isRedoing = true }
        group.performInReverse()
        isUndoing = false
        isRedoing = false
        // Groups an operation began and did not end are folded into the inverse.
        while openGroups.count > 1 {
            let unclosed = openGroups.removeLast()
            if !unclosed.isEmpty { openGroups[openGroups.count - 1].entries.append(.group(unclosed)) }
        }
        openGroups = outer
        return inverse
    }

    // MARK: Clearing

    /// Empties both stacks and any open groups, and enables registration again.
    open func removeAllActions() {
        undoStack = []
        redoStack = []
        openGroups = []
        automaticGroupIsOpen = false
        registrationDisabledCount = 0
    }

    /// Removes every operation registered with `target`, from both stacks and the open groups;
    /// closed groups left empty go too.
    open func removeAllActions(withTarget target: Any) {
        let targetID = ObjectIdentifier(target as AnyObject)
        for group in undoStack + redoStack + openGroups { group.removeActions(withTarget: targetID) }
        undoStack.removeAll(where: \.isEmpty)
        redoStack.removeAll(where: \.isEmpty)
    }
}
