/// A failure of a SQL store's database (SQLite's error codes, PostgreSQL's SQLSTATEs or a lost
/// connection), which knows the Cocoa error a caller of the store sees. The store turns it into
/// that error once, at its boundary (`SQLTableStore.mappingFailures`), whichever call failed.
protocol SQLStoreFailure: Error {
    /// - parameter saving: whether the failure happened while saving (134030 rather than a
    ///   fetch's code, where the database tells them apart).
    /// - parameter store: the failing store's URL, and words naming it in the message.
    func cocoaError(saving: Bool, storeURL: URL?, storeName: String) -> NSError
}
