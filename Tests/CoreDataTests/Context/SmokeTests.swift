import CoreData
import Testing
