/// An object of an entity: its values live here, its identity in `objectID`, and its context
/// tracks every change until save.
///
/// Use it directly with key-value coding (`value(forKey:)`, `setValue(_:forKey:)`) or subclass
/// it and declare properties with `@Managed`.
///
/// For example:
/// ```swift
/// final class Person: NSManagedObject {
///     @Managed var name: String?
/// }
/// let person = Person(context: context)
/// person.name = "Ada"
/// ```
open class NSManagedObject: NSObject, NSFetchRequestResult {
    /// The entity, read from where the ID is (which changes only from temporary to permanent,
    /// never its entity): one field less in every object, faults included.
    public var entity: NSEntityDescription {
        switch storage {
        case .blank(let entity): entity
        case .fault(let id): id.entity
        case .batchedFault(let batch, let slot): batch.members.entity(at: Int(slot))
        case .fetchedFault(let rows, let slot): rows[Int(slot)].objectID.entity
        case .state(let state): state.objectID.entity
        }
    }
    // Performance: the stored properties below are read and written on every property access,
    // fault and save, only on the context's queue, and never while another access to the same
    // property is open. `@exclusivity(unchecked)` drops the runtime's dynamic exclusivity check,
    // a call per access that showed as a large share of inserting and saving (BENCHMARKS.md).

    /// The context that owns the object; nil after its deletion is saved, its insertion rolled back, or its context reset.
    @exclusivity(unchecked) public internal(set) weak var managedObjectContext: NSManagedObjectContext?

    /// ID, values, row, changes and flags; only the ID, or where to make it, for an object that
    /// never held anything else (see `ObjectState`).
    @exclusivity(unchecked) private var storage: ObjectStorage

    /// The object's identity: temporary until its first save, then permanent. A batched fault
    /// makes its ID here, each time until it fires (IDs compare by value, not identity).
    public internal(set) var objectID: NSManagedObjectID {
        get {
            switch storage {
            case .blank: liveState().objectID
            case .fault(let id): id
            case .batchedFault(let batch, let slot): batch.members[Int(slot)]
            case .fetchedFault(let rows, let slot): rows[Int(slot)].objectID
            case .state(let state): state.objectID
            }
        }
        set {
            switch storage {
            case .fault: storage = .fault(newValue)
            case .blank, .batchedFault, .fetchedFault: liveState().objectID = newValue
            case .state(let state): state.objectID = newValue
            }
        }
    }

    /// What the ID says, read without making one: how the context's table finds the object.
    var registrationName: ObjectName {
        switch storage {
        case .blank: objectID.name
        case .fault(let id): id.name
        case .batchedFault(let batch, let slot): batch.members.name(at: Int(slot))
        case .fetchedFault(let rows, let slot): rows[Int(slot)].objectID.name
        case .state(let state): state.objectID.name
        }
    }

    /// The state, made with what the inline storage said if the object has none yet. The
    /// accessors below switch on `storage` themselves and come here only without a state:
    /// binding the state in the accessor lets the compiler borrow it rather than retain it per
    /// access. Code that touches the state several times in a row takes it once from here.
    func liveState() -> ObjectState {
        let created = switch storage {
        case .state(let state): state
        case .blank(let entity): ObjectState(objectID: NSManagedObjectID(temporaryFor: entity), isFault: false, fetchBatch: nil)
        case .fault(let id): ObjectState(objectID: id, isFault: true, fetchBatch: nil)
        case .batchedFault(let batch, let slot): ObjectState(objectID: batch.members[Int(slot)], isFault: true, fetchBatch: batch)
        case .fetchedFault(let rows, let slot):
            // The row moves to the context's read-ahead rows, where a fault with state finds it.
            ObjectState(objectID: keepInContext(rows.take(Int(slot))), isFault: true, fetchBatch: nil)
        }
        storage = .state(created)
        return created
    }

    /// Turns an object no one has seen yet into a fault of the object `id` names.
    func becomeFault(identifiedBy id: NSManagedObjectID) {
        storage = .fault(id)
    }

    /// Turns an object no one has seen yet into a fault of `batch`, with the ID of its member
    /// at `slot`: how a batched fetch makes its faults without making their IDs.
    func becomeFault(of batch: FetchBatch, at slot: Int) {
        storage = .batchedFault(batch, slot: UInt32(slot))
    }

    /// Current values by property ordinal (see `ObjectValues`).
    var values: ObjectValues {
        _read {
            if case .state(let state) = storage { yield state.values } else { yield ObjectValues(entity: entity) }
        }
        _modify {
            if case .state(let state) = storage { yield &state.values } else { yield &liveState().values }
        }
    }

    /// The layout the values are kept in, read without a pass through `values` (an access
    /// coroutine and a copy of the index reference): asked for on every property access.
    var propertyIndex: PropertyIndex {
        if case .state(let state) = storage { state.values.index } else { entity.propertyIndex }
    }

    /// The ordinal of the attribute `key`, nil for any other key.
    @usableFromInline
    func attributeOrdinal(forKey key: String) -> Int? {
        withUncountedPropertyIndex { $0.attributeOrdinal(forName: key) }
    }

    /// The ordinal of the attribute `binding` is bound to, nil if it names no attribute here.
    @usableFromInline
    func attributeOrdinal(of binding: ManagedPropertyBinding) -> Int? {
        if case .attribute(let ordinal) = slot(of: binding) { return ordinal }
        return nil
    }

    /// Where the value of the property `binding` is bound to lives in this object.
    func slot(of binding: ManagedPropertyBinding) -> ManagedPropertyBinding.Slot {
        withUncountedPropertyIndex { binding.slot(in: $0) }
    }

    /// Calls `body` with the object's property index. The index and its table are shared by
    /// every object of the entity on every thread: a read through `propertyIndex` counted a
    /// reference to each, and two threads reading attributes of different objects contended
    /// for those counts. A fired object's index is borrowed here, uncounted (its values hold it
    /// for the length of the call).
    private func withUncountedPropertyIndex<Result>(_ body: (PropertyIndex) -> Result) -> Result {
        if case .state(let state) = storage {
            return Unmanaged.passUnretained(state.values.index)._withUnsafeGuaranteedRef(body)
        }
        return body(propertyIndex)
    }

    /// The row this object was read from or last saved as; nil for a new object.
    var committed: RowSnapshot? {
        get {
            if case .state(let state) = storage { state.committed } else { nil }
        }
        set {
            if case .state(let state) = storage { state.committed = newValue } else if newValue != nil { liveState().committed = newValue }
        }
    }

    /// Properties changed since the last save.
    var changedKeys: ChangedKeys {
        _read {
            if case .state(let state) = storage { yield state.changedKeys } else { yield ChangedKeys(index: entity.propertyIndex) }
        }
        _modify {
            if case .state(let state) = storage { yield &state.changedKeys } else { yield &liveState().changedKeys }
        }
    }

    var insertedFlag: Bool {
        get {
            if case .state(let state) = storage { state.isInserted } else { false }
        }
        set {
            if case .state(let state) = storage { state.isInserted = newValue } else if newValue { liveState().isInserted = true }
        }
    }

    var deletedFlag: Bool {
        get {
            if case .state(let state) = storage { state.isDeleted } else { false }
        }
        set {
            if case .state(let state) = storage { state.isDeleted = newValue } else if newValue { liveState().isDeleted = true }
        }
    }

    var faultFlag: Bool {
        get {
            switch storage {
            case .blank: false
            case .fault, .batchedFault, .fetchedFault: true
            case .state(let state): state.isFault
            }
        }
        set {
            switch storage {
            case .blank: if newValue { liveState().isFault = true }
            case .fault, .batchedFault, .fetchedFault: if !newValue { liveState().isFault = false }
            case .state(let state): state.isFault = newValue
            }
        }
    }

    /// The pending batch of a batched fetch this fault's row will be read with.
    var fetchBatch: FetchBatch? {
        switch storage {
        case .blank, .fault, .fetchedFault: nil
        case .batchedFault(let batch, _): batch
        case .state(let state): state.fetchBatch
        }
    }

    /// Makes a fault read its row with `batch`, whose member at `slot` it is.
    func join(_ batch: FetchBatch, at slot: Int) {
        switch storage {
        case .fault, .batchedFault, .fetchedFault: becomeFault(of: batch, at: slot)
        case .state(let state): state.fetchBatch = batch
        case .blank: break
        }
    }

    /// Detaches the object from its batch (which is being read), making its ID if it had none.
    func leaveFetchBatch() {
        switch storage {
        case .batchedFault(let batch, let slot): storage = .fault(batch.members[Int(slot)])
        case .state(let state): state.fetchBatch = nil
        case .blank, .fault, .fetchedFault: break
        }
    }

    /// Makes a fault wait for the row at `slot` of `rows`, which its fetch just read. A fault
    /// with state keeps the row in its context instead.
    func awaitRow(at slot: Int, of rows: FetchedRows, in context: NSManagedObjectContext) {
        switch storage {
        case .fault, .batchedFault, .fetchedFault:
            // The row an earlier fetch kept for it is out of date; left there, it would hold
            // its values for as long as any fault of that fetch lives.
            if case .fetchedFault(let earlier, let earlierSlot) = storage, earlier !== rows { _ = earlier.take(Int(earlierSlot)) }
            storage = .fetchedFault(rows, slot: UInt32(slot))
            // An older row a merge or batch left for it would be found first nowhere, but
            // would take memory until the object goes.
            if !context.rowCache.isEmpty { context.rowCache.removeValue(forKey: rows[slot].objectID) }
        case .state: context.rowCache[objectID] = rows[slot]
        case .blank: break
        }
    }

    /// Makes a fault that never held state an object holding `row`, in one step; false, doing
    /// nothing, for any other object, which `apply(_:in:)` fills part by part.
    func fillStatelessFault(from row: RowSnapshot) -> Bool {
        guard case .fault(let objectID) = storage else { return false }
        storage = .state(ObjectState(objectID: objectID, filledFrom: row))
        return true
    }

    /// The row read for this fault before it fires: the one its fetch keeps for it, or the one
    /// its context keeps (for a fault with state, or read by a batch, prefetch or merge); nil
    /// for an object that is not a fault or has no such row.
    var readAheadRow: RowSnapshot? {
        if case .fetchedFault(let rows, let slot) = storage { return rows[Int(slot)] }
        guard faultFlag, let context = managedObjectContext, !context.rowCache.isEmpty else { return nil }
        return context.rowCache[objectID]
    }

    /// Removes and returns the read-ahead row: for a fault about to fire, or one whose row is
    /// no longer current.
    @discardableResult
    func takeReadAheadRow(in context: NSManagedObjectContext) -> RowSnapshot? {
        if case .fetchedFault(let rows, let slot) = storage {
            let row = rows.take(Int(slot))
            storage = .fault(row.objectID)
            return row
        }
        return context.rowCache.isEmpty ? nil : context.rowCache.removeValue(forKey: objectID)
    }

    /// Names temporary IDs by permanent ones in the row this fault's fetch keeps for it.
    func replaceIDsInFetchedRow(_ permanentIDs: [NSManagedObjectID: NSManagedObjectID]) {
        if case .fetchedFault(let rows, let slot) = storage { rows.replaceIDs(permanentIDs, at: Int(slot), objectID: objectID) }
    }

    /// Hands a fetched fault's row to its context when the fault gains state; returns its ID.
    private func keepInContext(_ row: RowSnapshot) -> NSManagedObjectID {
        managedObjectContext?.rowCache[row.objectID] = row
        return row.objectID
    }

    /// What only changed, inserted or misused objects need, allocated on first use so that
    /// unchanged objects stay small (see `ObjectBookkeeping`).
    private var bookkeeping: ObjectBookkeeping? {
        if case .state(let state) = storage { state.bookkeeping } else { nil }
    }

    /// Properties changed since the context last posted objects-did-change (Apple's "current
    /// event"); cleared once that notification has been posted.
    var eventChangedKeys: ChangedKeys {
        get { bookkeeping?.eventChangedKeys ?? ChangedKeys(index: propertyIndex) }
        _modify { yield &ensureBookkeeping().eventChangedKeys }
    }

    /// The names of the properties the current event changed, without their values: what
    /// SwiftData tells a model's observers when a merge moved them.
    package var keysChangedInCurrentEvent: Set<String> { eventChangedKeys.names }

    /// Errors from calls that cannot throw (an unknown key), thrown by the next save.
    var deferredErrors: [NSError] {
        get { bookkeeping?.deferredErrors ?? [] }
        _modify { yield &ensureBookkeeping().deferredErrors }
    }

    var unreadRowError: NSError? {
        get { bookkeeping?.unreadRowError }
        set { if newValue != nil || bookkeeping != nil { ensureBookkeeping().unreadRowError = newValue } }
    }

    /// When the object was inserted, relative to its context's other inserts: the first of
    /// several duplicates under a uniqueness constraint is the one that survives.
    var insertionSerial: UInt64 {
        get { bookkeeping?.insertionSerial ?? 0 }
        set { ensureBookkeeping().insertionSerial = newValue }
    }

    /// Set on a throwaway instance used to learn which key a Swift key path reads.
    var keyRecorder: KeyRecorder? {
        get { bookkeeping?.keyRecorder }
        set { ensureBookkeeping().keyRecorder = newValue }
    }

    /// Properties set through the primitive setter and not yet announced by `didChangeValue`.
    var primitivelyChangedKeys: Set<String> {
        get { bookkeeping?.primitivelyChangedKeys ?? [] }
        _modify { yield &ensureBookkeeping().primitivelyChangedKeys }
    }

    /// Fetched property results kept until the object turns into a fault.
    var fetchedPropertyResults: [String: [Any]] {
        get { bookkeeping?.fetchedPropertyResults ?? [:] }
        _modify { yield &ensureBookkeeping().fetchedPropertyResults }
    }

    /// Drops fetched property results (a refresh), allocating nothing for objects that have none.
    func forgetFetchedPropertyResults() {
        bookkeeping?.fetchedPropertyResults.removeAll()
    }

    func ensureBookkeeping() -> ObjectBookkeeping {
        if let bookkeeping { return bookkeeping }
        let state = liveState()
        let created = ObjectBookkeeping(index: state.values.index)
        state.bookkeeping = created
        return created
    }

    /// Creates an object of `entity`, inserting it into `context` if one is given.
    ///
    /// The designated initialiser, as on Apple platforms: a subclass may override it (even
    /// privately) and call `super`. Contexts make objects through `init(_entity:insertInto:)`, which every
    /// subclass that keeps or overrides this initialiser inherits and which lands here.
    public init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        storage = .blank(entity)
        super.init()
        ManagedObjectClassRegistry.shared.register(Swift.type(of: self))
        if let context { context.insert(self) }
    }

    /// Makes an object of this class through `init(entity:insertInto:)` and its overrides: how
    /// the framework instantiates a class it holds only as a metatype. Not for apps.
    ///
    /// Swift calls an initialiser on a metatype only if it is `required`; a required
    /// *convenience* initialiser is inherited by every subclass that overrides or inherits the
    /// designated one, so `init(entity:insertInto:)` itself need not be required and subclasses
    /// write `override init` (or `private override init`) as they do on Apple platforms.
    public required convenience init(_entity entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        self.init(entity: entity, insertInto: context)
    }

    /// Creates an object of the entity whose class is this subclass, inserted into `context`.
    ///
    /// Required, so that code written for Apple platforms can call it through a metatype
    /// (`Self(context: context)` in a class method or an extension); every subclass inherits it
    /// with `init(_entity:insertInto:)`, so it asks nothing more of subclasses.
    public required convenience init(context: NSManagedObjectContext) {
        guard let entity = Self.entity(in: context) else {
            preconditionFailure("CoreData: no entity in the context's model has class \(Self.self)")
        }
        self.init(entity: entity, insertInto: context)
    }

    /// Creates an object of this class through `init(entity:insertInto:)` and its overrides,
    /// for code that holds the class as a metatype: what `Self.init(entity:insertInto:)` does on
    /// Apple platforms. Swift calls an initialiser on a metatype only if it is `required`, and
    /// `init(entity:insertInto:)` is not, so that subclasses can write `override init` as there.
    ///
    /// For example:
    /// ```swift
    /// extension NSManagedObject {
    ///     static func inserted(into context: NSManagedObjectContext, entity: NSEntityDescription) -> Self {
    ///         make(entity: entity, insertInto: context)
    ///     }
    /// }
    /// ```
    public class func make(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) -> Self {
        self.init(_entity: entity, insertInto: context)
    }

    /// The entity whose class is this subclass, searched in the models in use.
    open class func entity() -> NSEntityDescription {
        guard let entity = ModelRegistry.shared.entity(for: self) else {
            preconditionFailure("CoreData: no loaded model has an entity with class \(self)")
        }
        return entity
    }

    /// A request for this subclass's entity, as Xcode's generated code declares it.
    open class func fetchRequest() -> NSFetchRequest<NSFetchRequestResult> {
        NSFetchRequest<NSFetchRequestResult>(entityName: entity().name ?? "")
    }

    static func entity(in context: NSManagedObjectContext) -> NSEntityDescription? {
        ManagedObjectClassRegistry.shared.register(self)
        guard let model = context.persistentStoreCoordinator?.managedObjectModel else { return nil }
        return ModelRegistry.entity(for: self, in: model)
    }

    // MARK: State

    /// True from insertion until the save that stores the object.
    public var isInserted: Bool { insertedFlag }
    /// True from `delete(_:)` until the save that removes the row.
    public var isDeleted: Bool { deletedFlag }
    /// True while the values have not been read; touching a property fires the fault.
    public var isFault: Bool { faultFlag }
    /// Changed since the last save, and neither new nor deleted.
    public var isUpdated: Bool { !changedKeys.isEmpty && !insertedFlag && !deletedFlag }
    /// True when the object is new, deleted, or has unsaved changes to any property.
    public var hasChanges: Bool { insertedFlag || deletedFlag || !changedKeys.isEmpty }
    /// True when a non-transient property changed since the last save.
    public var hasPersistentChangedValues: Bool {
        changedKeys.contains { entity.propertiesByName[$0]?.isTransient == false }
    }

    /// Changed properties and their new values.
    ///
    /// A new object changed from nothing: as on Apple platforms, every persistent property that
    /// holds a value counts, defaults and values set through primitive accessors in
    /// `awakeFromInsert()` included.
    public func changedValues() -> [String: Any] {
        var result: [String: Any] = [:]
        for key in changedKeys { result[key] = value(forKey: key) ?? NSNull() }
        guard insertedFlag else { return result }
        for property in propertyIndex.properties where !property.isTransient && result[property.name] == nil {
            guard let value = value(forKey: property.name) else { continue }
            if let members = value as? NSSet, members.count == 0 { continue }
            if let members = value as? NSOrderedSet, members.count == 0 { continue }
            result[property.name] = value
        }
        return result
    }

    /// Changed properties and their new values since the context last posted
    /// `NSManagedObjectContextObjectsDidChange`: what observers of that notification ask.
    public func changedValuesForCurrentEvent() -> [String: Any] {
        var result: [String: Any] = [:]
        for key in eventChangedKeys { result[key] = value(forKey: key) ?? NSNull() }
        return result
    }

    /// Values as of the last save (or fetch): all persistent properties when `keys` is nil.
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        guard let committed else { return [:] }
        let names = keys ?? entity.properties.filter { !$0.isTransient }.map(\.name)
        var result: [String: Any] = [:]
        for name in names {
            guard let property = entity.propertiesByName[name] else { continue }
            if let relationship = property as? NSRelationshipDescription, relationship.isToMany { continue }
            if let stored = committed.values[name] {
                result[name] = (stored as? NSManagedObjectID).flatMap { managedObjectContext?.object(with: $0) } ?? stored
            } else {
                result[name] = NSNull()
            }
        }
        return result
    }

    /// The class, URI and values (or `<fault>`), for logs; reading it does not fire a fault.
    public override var description: String {
        let state = faultFlag ? "<fault>" : values.keys.map { key in
            let value = values[key]
            if let object = value as? NSManagedObject { return "\(key) = \(object.objectID.uriRepresentation().absoluteString)" }
            if let id = value as? NSManagedObjectID { return "\(key) = \(id.uriRepresentation().absoluteString)" }
            if let members = ToManyMembers.of(value) { return "\(key) = <\(members.count) objects>" }
            return "\(key) = \(value.map { "\($0)" } ?? "nil")"
        }.joined(separator: "; ")
        return "<\(Swift.type(of: self)): \(objectID.uriRepresentation().absoluteString)> { \(state) }"
    }

    // MARK: Identity

    /// Identity, as on Apple platforms (subclasses must not override it). The reference is
    /// read off the existential after a check that it holds a class instance: contexts keep
    /// their objects in sets, which compare every probed member through this method with the
    /// argument boxed in `Any?`, and the runtime's general cast cost more than the set insertion.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let object, type(of: object) is AnyClass else { return false }
        let other = withUnsafePointer(to: object) { $0.withMemoryRebound(to: AnyObject.self, capacity: 1) { $0.pointee } }
        return other === self
    }

    /// Whether the object is of `objectClass` or a subclass: a check of its class, not the
    /// runtime's general cast.
    func isInstance(of objectClass: NSManagedObject.Type) -> Bool {
        Swift.type(of: self) == objectClass || isKind(of: objectClass)
    }

    /// Identity-based, consistent with `isEqual(_:)`.
    open override var hash: Int { ObjectIdentifier(self).hashValue }

    // MARK: Life-cycle hooks, overridable as on Apple platforms

    /// Called once when the object is first inserted into a context.
    open func awakeFromInsert() {}
    /// Called when the object's values are first read from the store.
    open func awakeFromFetch() {}
    /// Called before a save writes this object.
    open func willSave() {}
    /// Called after a save wrote this object.
    open func didSave() {}
    /// Called when the object is deleted, before delete rules run.
    open func prepareForDeletion() {}
    /// Called before the object drops its values (a refresh without merging, or a rollback).
    open func willTurnIntoFault() {}
    /// Called after the object dropped its values.
    open func didTurnIntoFault() {}
    /// Hook before a property is read through key-value coding or `@Managed`; the base does nothing.
    open func willAccessValue(forKey key: String?) {}
    /// Hook after a property was read; the base does nothing.
    open func didAccessValue(forKey key: String?) {}
    /// Hook before a property changes; override it with `didChangeValue(forKey:)` to watch edits (Linux has no KVO).
    open func willChangeValue(forKey key: String) {}

    /// Records the change of a property set through `setPrimitiveValue(_:forKey:)` since its
    /// `willChangeValue(forKey:)`: Apple's pattern for a hand-written setter. Overrides call
    /// super, as on Apple platforms.
    open func didChangeValue(forKey key: String) {
        // Every setter ends here; the set is almost always empty, and removing from it would
        // hash the key first, on every property set.
        guard let bookkeeping, !bookkeeping.primitivelyChangedKeys.isEmpty else { return }
        if bookkeeping.primitivelyChangedKeys.remove(key) != nil { noteChange(key) }
    }

    // MARK: Validation, overridable; call super to keep the model's rules

    /// Checks the model's rules for a new object; several failures throw one 1560 error.
    open func validateForInsert() throws { try validatePropertyRules() }
    /// Checks the model's rules for a changed object.
    open func validateForUpdate() throws { try validatePropertyRules() }
    /// Refuses deletion while a deny-rule relationship still has destinations (1600).
    open func validateForDelete() throws { try validateDeleteRules() }
}

/// Collects the key a probe instance is asked for; see `NSManagedObject.propertyName(for:)`.
final class KeyRecorder {
    var keys: [String] = []
}
