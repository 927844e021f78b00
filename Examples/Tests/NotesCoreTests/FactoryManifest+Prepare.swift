import FactoryKit
import NotesCore

extension FactoryManifest {
    /// Validation really opens the database: a private one in memory, not the user's.
    static func prepare(_ container: any ManagedContainer) {
        (container as? Container)?.databaseLocation.register {
            DatabaseLocation(path: ":memory:", createIfMissing: true)
        }
    }
}
