// Portable Core Data: Apple's Core Data API on Linux.
//
// Clients write `import CoreData` and get Foundation with it, as on Apple platforms.
@_exported import Foundation
