import Foundation

/// How the importer reads a file: a struct witness with one closure, so a test hands it bytes.
public struct FileReader: Sendable {
    /// The contents of the file at a path.
    public var read: @Sendable (String) throws -> Data

    /// Creates a reader from a closure.
    public init(read: @escaping @Sendable (String) throws -> Data) {
        self.read = read
    }

    /// Why a file could not be read, in a few words.
    public struct Failure: Error, Equatable {
        /// The reason, such as "no such file".
        public let reason: String

        /// Creates a failure.
        public init(_ reason: String) { self.reason = reason }
    }

    /// Reads from the file system.
    public static let live = FileReader { path in
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw Failure("no such file")
        }
        guard !isFolder.boolValue else { throw Failure("it is a folder") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw Failure("permission denied") }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
