import CoreData
import Foundation
import Testing

/// Composite attributes (`NSCompositeAttributeDescription`): one dictionary in memory, one
/// column per element in the store, and elements usable in fetches.
@Suite struct CompositeAttributeTests {
    let directory = TemporaryDirectory()

    /// A person with an address whose location is itself composite, as Xcode 15 writes it.
    static func model() throws -> NSManagedObjectModel {
        let xml = ModelFiles.modelXML("""
            <entity name="Person" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <attribute name="address" optional="YES" attributeType="Composite" composite="Address"/>
            </entity>
            <composite name="Address">
                <attribute name="street" optional="YES" attributeType="String"/>
                <attribute name="city" optional="YES" attributeType="String"/>
                <attribute name="postcode" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                <attribute name="location" optional="YES" attributeType="Composite" composite="Location"/>
            </composite>
            <composite name="Location">
                <attribute name="latitude" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                <attribute name="longitude" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
            </composite>
            """)
        return try #require(NSManagedObjectModel(contentsOf: try ModelFiles.contentsFile(xml)))
    }

    private func insertPerson(_ name: String, address: [String: Any]?, into context: NSManagedObjectContext) {
        let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
        person.setValue(name, forKey: "name")
        person.setValue(address, forKey: "address")
    }

    @Test func theModelReaderBuildsNestedCompositeDescriptions() throws {
        let person = try #require(try Self.model().entitiesByName["Person"])
        let address = try #require(person.attributesByName["address"] as? NSCompositeAttributeDescription)
        #expect(address.attributeType == .compositeAttributeType)
        #expect(address.type == .composite)
        #expect(address.elements.map(\.name) == ["street", "city", "postcode", "location"])
        let location = try #require(address.elements.last as? NSCompositeAttributeDescription)
        #expect(location.elements.map(\.attributeType) == [.doubleAttributeType, .doubleAttributeType])
    }

    @Test func aCompositeValueRoundTripsThroughTheStoreAsADictionary() throws {
        let url = directory.file("People.sqlite")
        let model = try Self.model()
        let context = try makeContainer(model: model, storeURL: url).newBackgroundContext()
        try context.performAndWait {
            insertPerson("Ada", address: ["street": "12 St James's Square", "city": "London", "postcode": 1,
                                          "location": ["latitude": 51.507, "longitude": -0.135]], into: context)
            insertPerson("Nobody", address: nil, into: context)
            try context.save()
        }
        let reader = try makeContainer(model: model, storeURL: url).newBackgroundContext()
        try reader.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let people = try reader.fetch(request)
            let address = try #require(people[0].value(forKey: "address") as? [String: Any])
            #expect(address["city"] as? String == "London")
            #expect((address["postcode"] as? NSNumber)?.int32Value == 1)
            #expect(((address["location"] as? [String: Any])?["longitude"] as? NSNumber)?.doubleValue == -0.135)
            #expect(people[0].value(forKeyPath: "address.location.latitude") as? Double == 51.507)
            #expect(people[1].value(forKey: "address") == nil)
        }
    }

    @Test(.sqliteOnly("reads the SQLite file's columns"))
    func theStoreKeepsOneColumnPerElement() throws {
        let url = directory.file("People.sqlite")
        let context = try makeContainer(model: try Self.model(), storeURL: url).newBackgroundContext()
        try context.performAndWait {
            insertPerson("Ada", address: ["city": "London", "location": ["latitude": 51.5]], into: context)
            try context.save()
        }
        let columns = Set(try SQLiteShell.lines(url, "SELECT name FROM pragma_table_info('ZPERSON')"))
        #expect(columns.isSuperset(of: ["ZADDRESS_STREET", "ZADDRESS_CITY", "ZADDRESS_POSTCODE",
                                        "ZADDRESS_LOCATION_LATITUDE", "ZADDRESS_LOCATION_LONGITUDE"]))
        #expect(!columns.contains("ZADDRESS"))
    }

    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func fetchesFilterAndSortOnElements(type: String) throws {
        let url = type == NSSQLiteStoreType ? directory.file("People.sqlite") : nil
        let context = try makeContainer(model: try Self.model(), storeURL: url, type: type).newBackgroundContext()
        try context.performAndWait {
            insertPerson("Ada", address: ["city": "London", "location": ["latitude": 51.5]], into: context)
            insertPerson("Grace", address: ["city": "New York", "location": ["latitude": 40.7]], into: context)
            insertPerson("Hedy", address: ["city": "Vienna", "location": ["latitude": 48.2]], into: context)
            try context.save()
            context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "address.location.latitude > 45 AND address.city != %@", "Paris")
            request.sortDescriptors = [NSSortDescriptor(key: "address.city", ascending: false)]
            #expect(try context.fetch(request).compactMap { $0.value(forKey: "name") as? String } == ["Hedy", "Ada"])
        }
    }

    @Test func editingOneElementIsAChangeTheNextSaveWrites() throws {
        let url = directory.file("People.sqlite")
        let model = try Self.model()
        let context = try makeContainer(model: model, storeURL: url).newBackgroundContext()
        try context.performAndWait {
            insertPerson("Ada", address: ["city": "London", "street": "Square"], into: context)
            try context.save()
            let ada = try #require(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).first)
            var address = try #require(ada.value(forKey: "address") as? [String: Any])
            address["city"] = "Cambridge"
            ada.setValue(address, forKey: "address")
            #expect(ada.changedValues().keys.contains("address"))
            try context.save()
        }
        let reader = try makeContainer(model: model, storeURL: url).newBackgroundContext()
        let city = try reader.performAndWait {
            try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).first?.value(forKeyPath: "address.city") as? String
        }
        #expect(city == "Cambridge")
    }

    @Test func aCompositeCannotBeComparedWholeInAStoreFetch() throws {
        let context = try makeContainer(model: try Self.model(), storeURL: directory.file("People.sqlite")).newBackgroundContext()
        context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "address == nil")
            #expect(throws: (any Error).self) { try context.fetch(request) }
        }
    }

    @Test func aModelBuiltInCodeStoresComposites() throws {
        let size = NSCompositeAttributeDescription()
        size.name = "size"
        size.elements = [NSAttributeDescription(name: "width", type: .doubleAttributeType),
                         NSAttributeDescription(name: "height", type: .doubleAttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [NSEntityDescription(name: "Photo", properties: [size])]
        let url = directory.file("Photos.sqlite")
        let context = try makeContainer(model: model, storeURL: url).newBackgroundContext()
        try context.performAndWait {
            NSEntityDescription.insertNewObject(forEntityName: "Photo", into: context).setValue(["width": 4032, "height": 3024], forKey: "size")
            try context.save()
            context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Photo")
            request.predicate = NSPredicate(format: "size.width > size.height")
            let photo = try #require(try context.fetch(request).first)
            #expect(photo.value(forKeyPath: "size.width") as? Double == 4032)
        }
    }

    @Test func changingAnElementChangesTheVersionHashAndModelEquality() throws {
        func model(heightType: NSAttributeType) -> NSManagedObjectModel {
            let size = NSCompositeAttributeDescription()
            size.name = "size"
            size.elements = [NSAttributeDescription(name: "width", type: .doubleAttributeType),
                             NSAttributeDescription(name: "height", type: heightType)]
            let model = NSManagedObjectModel()
            model.entities = [NSEntityDescription(name: "Photo", properties: [size])]
            return model
        }
        let doubles = model(heightType: .doubleAttributeType)
        let integers = model(heightType: .integer64AttributeType)
        #expect(doubles.entityVersionHashesByName["Photo"] != integers.entityVersionHashesByName["Photo"])
        #expect(doubles.entityVersionHashesByName["Photo"] == model(heightType: .doubleAttributeType).entityVersionHashesByName["Photo"])
        #expect(doubles != integers)
    }
}
