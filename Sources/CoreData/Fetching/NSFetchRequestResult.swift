/// What a fetch request can return: managed objects, object IDs, dictionaries or a count.
///
/// Apple's is an Objective-C protocol; here it marks the same four kinds of result.
public protocol NSFetchRequestResult: AnyObject {}

/// Counts are fetched as `NSNumber`s.
extension NSNumber: NSFetchRequestResult {}
/// Dictionary results are fetched as `NSDictionary`s.
extension NSDictionary: NSFetchRequestResult {}
