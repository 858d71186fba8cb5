import CoreData

extension TestModels {
    /// Inheritance and many-to-many: abstract Item with Book and Film subentities, tagged by Tags.
    static func library() -> NSManagedObjectModel {
        let item = NSEntityDescription(name: "Item", properties: [
            NSAttributeDescription(name: "title", type: .stringAttributeType),
            NSRelationshipDescription(name: "tags", destination: "Tag", toMany: true, inverse: "items"),
        ])
        item.isAbstract = true
        let book = NSEntityDescription(name: "Book", properties: [NSAttributeDescription(name: "pages", type: .integer32AttributeType)])
        let film = NSEntityDescription(name: "Film", properties: [NSAttributeDescription(name: "minutes", type: .integer32AttributeType)])
        item.subentities = [book, film]
        let tag = NSEntityDescription(name: "Tag", properties: [
            NSAttributeDescription(name: "label", type: .stringAttributeType),
            NSRelationshipDescription(name: "items", destination: "Item", toMany: true, inverse: "tags"),
        ])
        return NSManagedObjectModel(entities: [item, book, film, tag])
    }
}
