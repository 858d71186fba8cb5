/// The Cocoa errors a PostgreSQL store's callers see for the driver's failures.
extension PostgreSQLFailure: SQLStoreFailure {
    /// A lost server is 134030 for a save (the context keeps its changes) and 134080
    /// otherwise; a refused statement keeps PostgreSQL's SQLSTATE in the user info, and a
    /// unique violation is a constraint conflict (133021).
    func cocoaError(saving: Bool, storeURL: URL?, storeName: String) -> NSError {
        var info: [String: Any] = [NSURLErrorKey: storeURL as Any]
        let code: Int
        let message: String
        switch self {
        case .connectionLost(let reason):
            code = saving ? NSPersistentStoreSaveError : NSPersistentStoreOpenError
            message = "The PostgreSQL server of \(storeName) could not be reached: \(reason)"
            info[PostgreSQLErrorKeys.connectionLost] = true
        case .refused(let state, let reason):
            if state == "23505" {
                code = NSManagedObjectConstraintMergeError
                message = "A uniqueness constraint refused the save: \(reason)"
            } else {
                code = saving ? NSPersistentStoreSaveError : NSPersistentStoreOperationError
                message = "PostgreSQL refused a statement (SQLSTATE \(state)): \(reason)"
            }
            info[PostgreSQLErrorKeys.sqlState] = state
        }
        return CoreDataError.make(code, message, info)
    }
}
