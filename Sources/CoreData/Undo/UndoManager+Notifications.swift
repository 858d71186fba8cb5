/// The notifications an undo manager posts, named as on Apple platforms
/// (`.NSUndoManagerDidUndoChange` and so on); each is posted with the manager as its object.
extension Notification.Name {
    /// Posted when a group opens or closes and before undo or redo: the moment for a client
    /// (a managed object context) to register changes it has not registered yet.
    public static let NSUndoManagerCheckpoint = Notification.Name("NSUndoManagerCheckpointNotification")
    /// Posted before `undo()` reverses a group.
    public static let NSUndoManagerWillUndoChange = Notification.Name("NSUndoManagerWillUndoChangeNotification")
    /// Posted after `undo()` reversed a group.
    public static let NSUndoManagerDidUndoChange = Notification.Name("NSUndoManagerDidUndoChangeNotification")
    /// Posted before `redo()` replays a group.
    public static let NSUndoManagerWillRedoChange = Notification.Name("NSUndoManagerWillRedoChangeNotification")
    /// Posted after `redo()` replayed a group.
    public static let NSUndoManagerDidRedoChange = Notification.Name("NSUndoManagerDidRedoChangeNotification")
    /// Posted when a group opens, explicitly or by a registration under `groupsByEvent`.
    public static let NSUndoManagerDidOpenUndoGroup = Notification.Name("NSUndoManagerDidOpenUndoGroupNotification")
    /// Posted just before a group closes.
    public static let NSUndoManagerWillCloseUndoGroup = Notification.Name("NSUndoManagerWillCloseUndoGroupNotification")
    /// Its `userInfo` holds `UndoManager.groupIsDiscardableUserInfoKey`.
    public static let NSUndoManagerDidCloseUndoGroup = Notification.Name("NSUndoManagerDidCloseUndoGroupNotification")
}

extension UndoManager {
    /// The `NSUndoManagerDidCloseUndoGroup` user-info key whose Boolean value says whether the
    /// closed group was marked discardable (`setActionIsDiscardable(_:)`).
    public static let groupIsDiscardableUserInfoKey = "NSUndoManagerGroupIsDiscardableKey"

    func post(_ name: Notification.Name, userInfo: [AnyHashable: Any]? = nil) {
        NotificationCenter.default.post(name: name, object: self, userInfo: userInfo)
    }
}
