/// What a fetch request can return: managed objects, object IDs, dictionaries or a count.
///
/// Apple's is an Objective-C protocol; here it marks the same four kinds of result.
public protocol NSFetchRequestResult: AnyObject {}

extension NSNumber: NSFetchRequestResult {}
extension NSDictionary: NSFetchRequestResult {}
