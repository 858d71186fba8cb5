/// Named configurations: subsets of the model's entities, as Xcode's model editor defines them
/// (`<configuration>` elements) or code sets them.
///
/// For example:
/// ```swift
/// model.setEntities([person], forConfigurationName: "Local")
/// let local = model.entities(forConfigurationName: "Local")   // [person]
/// ```
/// A coordinator keeps every entity in its first store whatever configuration a store was
/// added with (the README's deliberate differences).
extension NSManagedObjectModel {
    /// The name of the configuration every model has, holding all its entities.
    static let defaultConfigurationName = "Default"

    /// The names of the model's named configurations, sorted.
    public var configurations: [String] {
        configurationMembers.keys.sorted()
    }

    /// The entities of the configuration `configuration`: all of them for nil or `"Default"`
    /// (unless a configuration of that name was set), nil for a name the model does not have.
    public func entities(forConfigurationName configuration: String?) -> [NSEntityDescription]? {
        let name = configuration ?? Self.defaultConfigurationName
        guard let members = configurationMembers[name] else {
            return name == Self.defaultConfigurationName ? entities : nil
        }
        let byName = entitiesByName
        return members.compactMap { byName[$0] }
    }

    /// Makes `entities` the members of the configuration `configuration`, creating it if needed.
    public func setEntities(_ entities: [NSEntityDescription], forConfigurationName configuration: String) {
        configurationMembers[configuration] = entities.compactMap(\.name)
    }
}
