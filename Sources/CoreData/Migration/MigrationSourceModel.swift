/// Finding the model a store was written with, which a migration starts from.
extension NSManagedObjectModel {
    /// The model version in `bundles` (the main bundle when nil) whose entity hashes are the
    /// ones `metadata` records, searching every version of every versioned model; nil when
    /// none matches.
    public class func mergedModel(from bundles: [Bundle]?, forStoreMetadata metadata: [String: Any]) -> NSManagedObjectModel? {
        let urls = (bundles ?? [Bundle.main]).flatMap { ModelBundleLocator.modelURLs(in: $0.bundleURL) }
        return urls.lazy.flatMap(modelVersions(at:)).first { $0.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) }
    }

    /// The versions a model file or versioned bundle at `url` holds, in name order.
    static func modelVersions(at url: URL) -> [NSManagedObjectModel] {
        guard ["xcdatamodeld", "momd"].contains(url.pathExtension) else { return [NSManagedObjectModel(contentsOf: url)].compactMap { $0 } }
        return versions(in: url).sorted { $0.key < $1.key }.map(\.value)
    }

    /// The model a store with `metadata` was written with: one of this model's sibling
    /// versions, one in the main bundle, or the archive the store keeps of it (`archived`),
    /// in that order; nil when none has the store's hashes.
    func sourceModel(forStoreMetadata metadata: [String: Any], archived: () -> NSManagedObjectModel?) -> NSManagedObjectModel? {
        let siblings = versionBundleURL.map(Self.modelVersions(at:)) ?? []
        if let match = siblings.first(where: { $0.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) }) { return match }
        if let match = Self.mergedModel(from: nil, forStoreMetadata: metadata) { return match }
        return archived().flatMap { $0.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) ? $0 : nil }
    }
}
