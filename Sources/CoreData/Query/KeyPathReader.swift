/// Follows key paths over objects in memory: through to-one relationships, fanning out over
/// to-many ones, and applying collection operators (`@count`, `@sum`, `@avg`, `@min`, `@max`).
enum KeyPathReader {
    /// One value, or the members of a to-many step (flattened across several such steps).
    enum Value {
        case single(Any?)
        case many([Any?])

        init(_ raw: Any?) {
            if let elements = collectionElements(of: raw) {
                self = .many(elements)
            } else {
                self = .single(unwrapOptional(raw))
            }
        }

        /// A missing value is an empty collection; a single value a collection of one.
        var members: [Any?] {
            switch self {
            case .single(nil): []
            case .single(let value): [value]
            case .many(let values): values
            }
        }
    }

    static func follow(_ components: [String], from start: Value) throws -> Value {
        var current = start
        var index = 0
        while index < components.count {
            let key = components[index]
            if key.hasPrefix("@") {
                let members = current.members
                let rest = Array(components[(index + 1)...])
                switch key {
                case "@count":
                    guard rest.isEmpty else { throw PredicateError.semantic("nothing may follow @count in a key path") }
                    return .single(NSNumber(value: members.count))
                case "@sum", "@avg", "@min", "@max":
                    let values = rest.isEmpty ? members : try follow(rest, from: .many(members)).members
                    let function: ExpressionFunction = switch key {
                    case "@sum": .sum
                    case "@avg": .average
                    case "@min": .min
                    default: .max
                    }
                    let result = try function.apply([.collection(values.map { ConstantValue(any: $0) })])
                    guard case .scalar(let scalar) = result else { return .single(nil) }
                    return .single(scalar.anyValue)
                default:
                    throw PredicateError.semantic("unsupported collection operator \(key)")
                }
            }
            let remaining = components[(index + 1)...]
            switch current {
            case .single(nil):
                break
            case .single(let object?):
                current = try read(key, of: object, remaining: remaining)
            case .many(let objects):
                var flattened: [Any?] = []
                for object in objects {
                    guard let object else {
                        flattened.append(nil)
                        continue
                    }
                    switch try read(key, of: object, remaining: remaining) {
                    case .single(let value): flattened.append(value)
                    case .many(let values): flattened.append(contentsOf: values)
                    }
                }
                current = .many(flattened)
            }
            index += 1
        }
        return current
    }

    private static func read(_ key: String, of object: Any, remaining: ArraySlice<String>) throws -> Value {
        if let entity = (object as? NSManagedObject)?.entity ?? (object as? EntityDescribing)?.describedEntity {
            guard let property = entity.propertiesByName[key] else {
                // The object's own keys (`entity`, `objectID`, ...) and `@KeyValueCoded` properties.
                if let object = object as? NSManagedObject, let reader = object.unmodelledReader(forKey: key) {
                    return Value(reader(object))
                }
                if key == "entity" { return .single(entity) }
                throw PredicateError.semantic("keypath \(key) not found in entity \(entity.name ?? "?")")
            }
            let raw = (object as? KeyValueReadable)?.readValue(forKey: key)
            // A missing to-one on the way to a to-many yields no members (as SQL's correlated
            // subquery finds none), not a nil member.
            if unwrapOptional(raw) == nil, let relationship = property as? NSRelationshipDescription,
               !relationship.isToMany, crossesToMany(remaining, from: relationship.destinationEntity) {
                return .many([])
            }
            return Value(raw)
        }
        if key == "length", let string = (object as? String) ?? (object as? NSString).map(String.init) {
            return .single(NSNumber(value: string.utf16.count))
        }
        if let readable = object as? KeyValueReadable {
            return Value(readable.readValue(forKey: key))
        }
        throw PredicateError.semantic("cannot read key '\(key)' of a value of type \(type(of: object))")
    }

    private static func crossesToMany(_ components: ArraySlice<String>, from entity: NSEntityDescription?) -> Bool {
        var entity = entity
        for component in components {
            if component.hasPrefix("@") { return true }
            guard let relationship = entity?.relationshipsByName[component] else { return false }
            if relationship.isToMany { return true }
            entity = relationship.destinationEntity
        }
        return false
    }
}

/// A value that is not a managed object but has an entity (row snapshots, test rows), so key
/// paths over it are checked against the model as they are for managed objects.
protocol EntityDescribing {
    var describedEntity: NSEntityDescription { get }
}
